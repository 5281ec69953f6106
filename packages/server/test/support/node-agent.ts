import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

let usable: string | undefined;

/**
 * A Node the agents' users can run: this one, or, where it lies in a folder they cannot
 * enter (a Node of a clone's own in root's private home), a copy of it in a shared
 * temporary directory, made once for every test process (named by the binary's size and
 * time) and moved into place whole. Agents run as other users than the tests (`nobody`, a
 * uid of a principal's) when the tests run as root.
 */
export function agentNode(): string {
  if (usable) return usable;
  if (process.getuid?.() !== 0) return (usable = process.execPath);
  const check = spawnSync(process.execPath, ['-e', ''], { uid: 65534, gid: 65534, stdio: 'ignore', timeout: 30_000 });
  if (!check.error && check.status === 0) return (usable = process.execPath);
  const { size, mtimeMs } = statSync(process.execPath);
  const dir = join(tmpdir(), `agent-runs-test-node-${size}-${Math.round(mtimeMs)}`);
  const node = join(dir, 'node');
  if (!existsSync(node)) {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const partial = `${node}.${process.pid}`;
    copyFileSync(process.execPath, partial);
    chmodSync(partial, 0o755);
    renameSync(partial, node);
  }
  return (usable = node);
}

/** The command of an agent that is `node -e <script>` (a Node the agent's user can run, or `node`), quoted for the shell the executor runs it in. */
export function nodeAgentCommand(script: string, node = agentNode()): string {
  return `${shellQuote(node)} -e ${shellQuote(script)}`;
}
