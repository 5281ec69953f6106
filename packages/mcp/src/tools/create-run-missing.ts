import { visibleText, type AgentRunsClient } from '@agent-runs/core';
import type { CallToolResult, InputRequiredResult, McpServer, ServerContext as RequestContext } from '@modelcontextprotocol/server';
import { answerTo, ask, canAsk, MAX_CHOICES, refused, type Question } from '../ask/ask-user.js';
import { errorResult } from './tool-error.js';

export interface CreateRunInputs {
  prompt?: string | undefined;
  skill?: string | undefined;
  environment?: string | undefined;
  agent?: string | undefined;
}

type Resolved = { kind: 'ready'; inputs: CreateRunInputs } | { kind: 'answer'; result: CallToolResult | InputRequiredResult };

type Choice = { id: string; title: string };

const title = (name: string, id: string) => visibleText(name === id ? id : `${name} (${id})`).slice(0, 200);

async function environmentChoices(client: AgentRunsClient): Promise<Choice[]> {
  const { environments } = await client.environments.list();
  return environments.map((e) => ({ id: e.uid, title: title(e.config.name ?? e.uid, e.uid) }));
}

async function agentChoices(client: AgentRunsClient): Promise<Choice[]> {
  const { agents } = await client.agents.list();
  return agents.map((a) => ({ id: a.uid, title: title(a.name, a.uid) }));
}

/** Whether `given` names one of `choices`, by id or (case-insensitive) name. */
function known(choices: Choice[], given: string): boolean {
  const wanted = given.trim().toLowerCase();
  return choices.some((c) => c.id.toLowerCase() === wanted || c.title.toLowerCase().startsWith(`${wanted} (`) || c.title.toLowerCase() === wanted);
}

/**
 * A create_run with no prompt (and no skill), or naming an environment or named agent the
 * server does not have, asks the user, with the valid choices, when the host can ask;
 * otherwise the call goes on to the error that names the field and the choices. Answers
 * arrive on the retried call and take the place of the arguments.
 */
export async function resolveCreateRunInputs(
  server: McpServer,
  client: AgentRunsClient,
  request: RequestContext,
  args: CreateRunInputs,
): Promise<Resolved> {
  const inputs: CreateRunInputs = { ...args };
  // A host that cannot ask gets the error that names the field and the choices, from the call itself.
  if (!canAsk(server, request)) return { kind: 'ready', inputs };
  const questions: Question[] = [];
  for (const field of ['prompt', 'environment', 'agent'] as const) {
    if (refused(request, field)) {
      return { kind: 'answer', result: errorResult(`The user declined to give ${field}: no run was started. Ask them what they want instead.`) };
    }
    const answered = answerTo(request, field);
    if (answered !== undefined) inputs[field] = answered;
  }
  if (!inputs.prompt && !inputs.skill) {
    questions.push({ field: 'prompt', message: 'What should the cloud agent do? Describe the task as you would to a colleague.' });
  }
  for (const [field, list] of [
    ['environment', environmentChoices],
    ['agent', agentChoices],
  ] as const) {
    const given = inputs[field];
    if (given === undefined || answerTo(request, field) !== undefined) continue;
    const choices = await list(client);
    if (known(choices, given)) continue;
    questions.push({
      field,
      message: `There is no ${field === 'agent' ? 'named agent' : field} "${visibleText(given).slice(0, 100)}". Which one should the run use?`,
      choices,
    });
  }
  if (questions.length === 0) return { kind: 'ready', inputs };
  if (questions.every((q) => !q.choices || (q.choices.length > 0 && q.choices.length <= MAX_CHOICES))) {
    return { kind: 'answer', result: ask(questions) };
  }
  // Nothing to choose from (or too much): the call goes on and its error names the field and what is valid.
  return { kind: 'ready', inputs };
}

