import { visibleText, withIssueNames, type RunAgentRequest } from '@agent-runs/core';
import { resolveEnvironmentAndAgentFlags, withEnvironment } from '../input/environment-and-agent-flags.js';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { chooseDisplay } from '../follow/choose-display.js';
import { followOnTerminal } from '../follow/follow-on-terminal.js';
import { followUpHint, reportOutcome } from '../follow/report-outcome.js';
import { RUN_FLAG_NAMES, runRequestFromFlags } from '../input/run-request-from-flags.js';
import { durationFlag, timeoutFlag } from '../input/duration-flag.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { WAIT_FLAGS } from './wait-flags.js';
import { BUDGET_FLAGS } from '../input/budget-flags.js';

export const runCommand: Command = {
  name: 'run',
  summary: 'Start a run (and, with --wait, follow it to the end)',
  usage: '<prompt> [flags]',
  description:
    'Start a cloud agent run with a prompt. Without --wait it prints the run id and returns at once;\n' +
    'with --wait (or --timeout) it follows the run and exits with its outcome.',
  positionals: true,
  usesApi: true,
  issueNames: RUN_FLAG_NAMES,
  flags: {
    'prompt-file': { type: 'string', value: '<path>', description: 'Read the prompt from a file (- for stdin) instead of the argument' },
    title: { type: 'string', value: '<text>', description: 'Title of the run (default: made from the prompt)' },
    name: { type: 'string', value: '<name>', description: 'Config name, a label to group and filter runs by' },
    model: { type: 'string', value: '<model-id>', description: 'Model to use (default: the team default; see the models command)' },
    harness: { type: 'string', value: '<claude|codex|gemini|oz>', description: 'The agent CLI that runs the task (default: the server\'s)' },
    'base-prompt': { type: 'string', value: '<text>', description: 'A custom base prompt for the agent' },
    environment: { type: 'string', value: '<name-or-id>', description: 'Environment to run the agent in (see the environments command)' },
    agent: { type: 'string', value: '<name-or-id>', description: 'A named agent whose prompt, skills, MCP servers and environment the run takes (see agents list)' },
    skill: { type: 'string', value: '<spec>', description: 'Skill to run: its name, repo:skill, org/repo:skill or a path to a SKILL.md (see the skills command)' },
    mcp: {
      type: 'string',
      value: '<json|file>',
      description: 'MCP servers: a JSON object, or a file holding one (the {"mcpServers": …} shape works too)',
    },
    'computer-use': { type: 'boolean', description: 'Enable computer use for the agent' },
    'idle-timeout': { type: 'string', value: '<minutes>', description: 'Keep the environment alive this long after the task (1-60)' },
    'worker-host': {
      type: 'string',
      value: '<id>',
      description: 'Run on a self-hosted worker connected under this id (see the workers command)',
    },
    ...BUDGET_FLAGS,
    pr: {
      type: 'string',
      value: '<draft|ready|off>',
      description: 'Open a pull request with the run\'s changes (draft or ready), or none (off); only where the environment declares pull_requests (default: the environment\'s own)',
    },
    team: { type: 'boolean', description: 'Create a team-owned run' },
    wait: { type: 'boolean', short: 'w', description: 'Follow the run until it ends; exit with its outcome' },
    ...WAIT_FLAGS,
    json: { type: 'boolean', description: 'Print JSON on stdout, nothing else (the created run, or the final run with --wait)' },
  },
  examples: [
    '$0 run "Fix the flaky test in ci.yml"',
    '$0 run "Update the changelog" --wait --timeout 30m',
    '$0 run --prompt-file task.md --model claude-4-sonnet --environment env_123 --wait',
    '$0 run "Fix the failing test" --harness claude --model claude-sonnet-4-5 --wait',
    `$0 run "Triage new issues" --mcp '{"github": {"url": "https://mcp.example.com/github"}}'`,
    '$0 run "Train the model" --worker-host gpu --wait',
    '$0 run "Fix the failing test" --harness claude --max-cost-usd 2 --max-duration 30m --wait',
    '$0 run "Fix the failing test and open a pull request" --environment web --pr draft --wait',
    '$0 run "Summarize the repo" --json | jq -r .run_id',
  ],
  async run(flags, ctx) {
    const body = runRequestFromFlags(flags);
    const timeoutMs = timeoutFlag(flags);
    const pollIntervalMs = durationFlag(flags, 'poll-interval');
    const wait = flags.bool('wait') || timeoutMs !== undefined;
    const json = flags.bool('json');
    const client = ctx.client();
    const resolved = await resolveEnvironmentAndAgentFlags(flags, client, ctx.invocation);
    const config = withEnvironment(body.config, resolved.environmentId);
    const request: RunAgentRequest = {
      ...body,
      config,
      ...(resolved.agentUid ? { agent_identity_uid: resolved.agentUid } : {}),
    };
    const created = await client.runs.create(request).catch((error: unknown) => {
      throw withIssueNames(error, RUN_FLAG_NAMES);
    });
    const { io } = ctx;

    if (!wait) {
      if (json) writeJson(io.stdout, created);
      else {
        const paint = paintFor(io.stdout, io.env);
        const runId = visibleText(created.run_id);
        io.stdout.write(`${runId}\n`);
        io.stderr.write(`Started run ${runId} (${paint.state(visibleText(created.state))}).\n${followUpHint(ctx, runId)}\n`);
      }
      return EXIT.OK;
    }

    if (!json) io.stderr.write(`Started run ${visibleText(created.run_id)}.\n`);
    const outcome = await followOnTerminal({
      client,
      runId: created.run_id,
      io,
      display: chooseDisplay(io, created.run_id, json),
      timeoutMs,
      pollIntervalMs,
      quiet: flags.bool('quiet'),
    });
    return reportOutcome(outcome, created.run_id, ctx, json);
  },
};
