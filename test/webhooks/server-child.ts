import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerChild {
  child: ChildProcess;
  baseURL: string;
  exited: Promise<unknown>;
}

/** A server in a process of its own (so a test can `kill -9` it), started with `options` for startServer. */
export async function startServerChild(options: Record<string, unknown>): Promise<ServerChild> {
  const script = `import { startServer } from '@agent-runs/server';
const server = await startServer(${JSON.stringify({ port: 0, quiet: true, ...options })});
process.stderr.write('listening ' + server.baseURL + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  const baseURL = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const match = /listening (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`The server exited before listening:\n${stderr}`)));
  });
  return { child, baseURL, exited };
}
