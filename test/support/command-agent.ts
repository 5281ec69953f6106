import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '@agent-runs/server';

/**
 * A local server on a free loopback port whose agent is a real shell command, in memory and
 * quiet unless `options` say otherwise.
 */
export function startCommandAgentServer(command: string, options: ServerOptions = {}): Promise<RunningServer> {
  return startServer({ port: 0, storage: 'memory', quiet: true, executor: 'command', command, ...options });
}

/** Writes `script` as agent.sh in a fresh temporary directory; returns that directory and the command that runs it. */
export function writeAgentScript(script: string): { dir: string; command: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-agent-'));
  const path = join(dir, 'agent.sh');
  writeFileSync(path, script);
  // Agents of these tests log beside their script: the agent user of a root server writes there too.
  chmodSync(dir, 0o777);
  return { dir, command: `sh '${path}'` };
}

/**
 * A command agent whose last words on stderr (the run's status message) are `words`, byte
 * for byte, followed by `then` (e.g. `exit 1`). The words are read from a file so that no
 * shell quoting touches the escape sequences a test puts in them.
 */
export function lastWordsCommand(words: string, then: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-agent-'));
  const path = join(dir, 'last-words.txt');
  writeFileSync(path, words);
  return `cat '${path}' >&2; ${then}`;
}
