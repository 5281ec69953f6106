import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-worker.js', import.meta.url));

/** The built `agent-runs-job-entrypoint`: what a Job's pod (the stand-in's, a local process) or a dispatch script starts, to run the agent and report to the worker. */
export const JOB_ENTRYPOINT = fileURLToPath(new URL('../../bin/agent-runs-job-entrypoint.js', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed on stderr so far. */
  stderr: () => string;
  /** `--listen`'s address, when given. */
  probesUrl: string | undefined;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the built `agent-runs-worker` with `args` and the token in its variable; resolves once it connected. */
export async function startWorkerProcess(args: string[], token: string, env: NodeJS.ProcessEnv = process.env): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...env, AGENT_RUNS_WORKER_TOKEN: token } });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agent-runs-worker did not connect within 30 s:\n${stderr}`)), 30_000);
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      if (/^Connected to /m.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`agent-runs-worker exited before it connected:\n${stderr}`)));
  });
  const probesUrl = /Serving \/readyz and \/metrics at (http:\/\/\S+)/.exec(stderr)?.[1];
  return { child, stderr: () => stderr, probesUrl, exited };
}
