import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));
const SERVER_INDEX = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  baseURL: string;
  /** Everything it printed on stderr so far. */
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the built `agent-runs-server` command and resolves once it listens; `as`: as that user (the caller is root), from `bin`. */
export async function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  as: ({ uid: number; gid: number } & Partial<ServerCommand>) | undefined = undefined,
): Promise<ServerProcess> {
  const ids = as ? { uid: as.uid, gid: as.gid } : {};
  const child = spawn(as?.node ?? process.execPath, [as?.bin ?? BIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env, ...ids });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseURL = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const match = /listening on (http:\/\/\S+\/api\/v1)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`agent-runs-server exited before listening:\n${stderr}`)));
  });
  return { child, baseURL, stderr: () => stderr, exited };
}

/** A Node and the `agent-runs-server` script it runs. */
export interface ServerCommand {
  node: string;
  bin: string;
}

/**
 * The `agent-runs-server` command as `uid` may start it: this clone's, with this Node, when
 * that user can run them; else a copy of what it needs (the built packages and
 * node_modules, and this Node where it lies in a folder that user cannot enter, as a Node of
 * a clone's own in a private home does) in a directory it can read.
 */
export function serverCommandFor(uid: number, gid: number): ServerCommand {
  const check = spawnSync(process.execPath, ['-e', 'import(process.argv[1])', pathToFileURL(SERVER_INDEX).href], { uid, gid, stdio: 'ignore', timeout: 60_000 });
  if (check.status === 0) return { node: process.execPath, bin: BIN };
  const root = mkdtempSync(join(tmpdir(), 'agent-runs-server-copy-'));
  chmodSync(root, 0o755);
  for (const part of ['package.json', 'node_modules', 'packages/core/package.json', 'packages/core/dist', 'packages/server/package.json', 'packages/server/bin', 'packages/server/dist']) {
    cpSync(join(REPO, part), join(root, part), { recursive: true, verbatimSymlinks: true });
  }
  const runsNode = spawnSync(process.execPath, ['-e', ''], { uid, gid, stdio: 'ignore', timeout: 60_000 });
  let node = process.execPath;
  if (runsNode.error || runsNode.status !== 0) {
    node = join(root, 'node');
    cpSync(process.execPath, node);
    chmodSync(node, 0o755);
  }
  return { node, bin: join(root, 'packages/server/bin/agent-runs-server.js') };
}

/**
 * Kills every process still running of those a test started (emptying the list), and waits for
 * each to exit. SIGCONT first: a process a test stopped with SIGSTOP is killed too.
 */
export async function killProcesses(processes: { child: ChildProcess; exited: Promise<unknown> }[]): Promise<void> {
  for (const p of processes.splice(0)) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
    p.child.kill('SIGCONT');
    p.child.kill('SIGKILL');
    await p.exited;
  }
}
