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
  as: { uid: number; gid: number; bin?: string } | undefined = undefined,
): Promise<ServerProcess> {
  const ids = as ? { uid: as.uid, gid: as.gid } : {};
  const child = spawn(process.execPath, [as?.bin ?? BIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env, ...ids });
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

/**
 * The `agent-runs-server` command as `uid` may start it: this clone's when that user can
 * load the server from it, else a copy of what it needs (the built packages and
 * node_modules) in a directory it can read, for clones in a private home.
 */
export function serverBinFor(uid: number, gid: number): string {
  const check = spawnSync(process.execPath, ['-e', 'import(process.argv[1])', pathToFileURL(SERVER_INDEX).href], { uid, gid, stdio: 'ignore', timeout: 60_000 });
  if (check.status === 0) return BIN;
  const root = mkdtempSync(join(tmpdir(), 'agent-runs-server-copy-'));
  chmodSync(root, 0o755);
  for (const part of ['package.json', 'node_modules', 'packages/core/package.json', 'packages/core/dist', 'packages/server/package.json', 'packages/server/bin', 'packages/server/dist']) {
    cpSync(join(REPO, part), join(root, part), { recursive: true, verbatimSymlinks: true });
  }
  return join(root, 'packages/server/bin/agent-runs-server.js');
}
