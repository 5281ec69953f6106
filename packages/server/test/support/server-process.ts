import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  baseURL: string;
  /** Everything it printed on stderr so far. */
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the built `agent-runs-server` command and resolves once it listens. */
export async function startServerProcess(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
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
