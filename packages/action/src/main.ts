import * as core from '@actions/core';
import { DEFAULT_BASE_URL, visibleText, type AgentRunsClient } from '@agent-runs/core';
import { createActionClient } from './action-client.js';
import { defaultTitle } from './default-title.js';
import { errorMessage, type ErrorContext } from './error-message.js';
import { artifactLinks } from './artifact-links.js';
import { startAndFollow, type RunStart } from './start-and-follow.js';
import { readGitHubContext } from './github-context.js';
import { checkTrigger } from './trigger-check.js';
import { InputError } from './input-error.js';
import { readInputs } from './inputs.js';
import { resolveEnvironmentAndAgent } from './resolve-environment-and-agent.js';
import { writeJobSummary } from './job-summary.js';
import { runChildren } from './run-children.js';
import { setRunOutputs } from './outputs.js';
import { handOverChangesPatch } from './changes-patch.js';
import { publicRun } from './session-link.js';
import { commentOnPullRequest } from './comment-on-pull-request.js';
import { watchJobCancellation } from './signals.js';
import { markMainStepStarted } from './step-state.js';
import { logRunText } from './workflow-text.js';

/** The main step: read the inputs, start and follow the run, report it, fail the step if it should. */
export async function run(): Promise<void> {
  markMainStepStarted();
  const jobCancel = watchJobCancellation();
  const errorContext: ErrorContext = { baseURL: DEFAULT_BASE_URL };
  let client: AgentRunsClient | undefined;
  let runId: string | undefined;
  try {
    const inputs = readInputs();
    errorContext.apiKey = inputs.apiKey;
    client = createActionClient(inputs);
    errorContext.baseURL = client.baseURL;

    const github = readGitHubContext();
    const verdict = await checkTrigger(github, { allowForks: inputs.allowForks, allowedActors: inputs.allowedActors, githubToken: inputs.githubToken });
    if (!verdict.allowed) {
      core.setFailed(visibleText(verdict.reason));
      return;
    }
    for (const note of verdict.notes) core.warning(visibleText(note));
    let how: RunStart;
    if (inputs.followup) {
      core.debug(`Following up run ${inputs.followup.runId} at ${client.baseURL}`);
      how = { followup: inputs.followup };
    } else {
      const title = inputs.request.title ?? defaultTitle(github);
      core.debug(`Creating a run at ${client.baseURL} titled "${title ?? '(from the prompt)'}"`);
      how = { request: await resolveEnvironmentAndAgent(client, title ? { ...inputs.request, title } : inputs.request, inputs.agent) };
    }

    const outcome = await startAndFollow(client, how, inputs, jobCancel, (id) => (runId = id));
    // The log, outputs, summary and comment are read by others than the run's owner: the session link goes without its token.
    const shown = publicRun(outcome.run);
    setRunOutputs(shown);
    await handOverChangesPatch(client, outcome.run);
    if (inputs.jobSummary) await writeJobSummary(shown, outcome.headline, await artifactLinks(client, outcome.run), outcome.outputTail, await runChildren(client, outcome.run));
    if (inputs.comment && inputs.githubToken) {
      await commentOnPullRequest(inputs.githubToken, shown, outcome.headline, github);
    }
    if (outcome.failed) core.setFailed(visibleText(outcome.headline));
    else logRunText(outcome.headline);
  } catch (error) {
    if (runId) core.setOutput('run-id', runId);
    core.setFailed(visibleText(errorMessage(error, errorContext), { multiline: true }));
    // The stack is for whoever debugs the action, never for a user's mistake.
    if (error instanceof Error && !(error instanceof InputError) && error.stack) {
      core.debug(errorMessage(error.stack, errorContext));
    }
  } finally {
    jobCancel.dispose();
    await client?.close();
  }
}
