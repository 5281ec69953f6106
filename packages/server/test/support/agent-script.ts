import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes an agent's Node source to `agent.cjs` in `dir` and returns the worker's `--command`
 * that runs it with this Node: the entrypoint that runs it (in the Kubernetes stand-in's pod,
 * or dispatched) is a local process of this user, with no sandbox between.
 */
export function agentScriptCommand(dir: string, source: string): string {
  const agent = join(dir, 'agent.cjs');
  writeFileSync(agent, source);
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(agent)}`;
}
