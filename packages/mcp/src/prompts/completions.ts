import { visibleText, type AgentRunsClient } from '@agent-runs/core';

/** Suggestions per completion: MCP hosts show a short list, and the spec caps it at 100. */
const MAX_SUGGESTIONS = 20;

const matching = (values: string[], typed: string) => {
  const wanted = typed.trim().toLowerCase();
  return [...new Set(values)].filter((v) => v.toLowerCase().startsWith(wanted) || v.toLowerCase().includes(wanted)).slice(0, MAX_SUGGESTIONS);
};

/** Any failure (no key, server down) completes to nothing rather than failing the host's input box. */
async function safely(list: () => Promise<string[]>, typed: string): Promise<string[]> {
  try {
    return matching(await list(), typed);
  } catch {
    return [];
  }
}

/** Environment names (and ids) as completions. */
export function completeEnvironment(client: AgentRunsClient) {
  return (typed: string | undefined = '') =>
    safely(async () => (await client.environments.list()).environments.map((e) => visibleText(e.config.name ?? e.uid)), typed);
}

/** Skill ids (what create_run takes as `skill`) as completions. */
export function completeSkill(client: AgentRunsClient) {
  return (typed: string | undefined = '') => safely(async () => (await client.skills.list()).agents.flatMap((a) => a.variants.map((v) => visibleText(v.id))), typed);
}

/** The ids of the most recently updated runs as completions. */
export function completeRecentRun(client: AgentRunsClient) {
  return (typed: string | undefined = '') => safely(async () => (await client.runs.list({ limit: 50 })).runs.map((r) => r.run_id), typed);
}
