import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestUsage } from '@agent-runs/core/contract';
import { Backoff } from '../../domain/backoff.js';
import { COMMAND_ENV } from '../../executors/command-env.js';
import { fileLimitsFrom, JOB_ENV, JOB_HEARTBEAT_MS, MAX_JOB_LINE_CHARS, MAX_JOB_LINES, type FileLimits } from './job-limits.js';
import type { JobEnd, JobOutput } from './job-protocol.js';

/** How long a report is tried again while the worker does not answer (a restart, a rollout) before the entrypoint gives up. */
const RETRY_FOR_MS = 15 * 60_000;
/** Text in one output request, at most (a longer line goes alone). */
const BATCH_CHARS = 512 * 1024;
/** Output waiting for the worker, at most; past it, lines are counted and dropped. */
const MAX_QUEUED_CHARS = 32 * 1024 * 1024;
/** After SIGTERM, how long the agent has before it is killed. */
const STOP_GRACE_MS = 5_000;

type Sent = 'taken' | 'gone' | 'refused' | 'gave-up';
type Line = JobOutput['lines'][number];

/**
 * Inside a Job's pod: runs the agent command (`/bin/sh -c`), passes its output on as it
 * comes, line by line, to the worker that made the Job, then how it ended and the usage it
 * wrote; exits with the agent's code. Reports wait out a worker's restart (tried again for
 * up to 15 minutes); a worker that says the run is over here (410) has the agent stopped,
 * asked every few seconds while the agent is quiet (a cancel where no cluster ends the pod).
 * The agent gets neither the run's token nor where to report.
 */
export async function runJobEntrypoint(env: NodeJS.ProcessEnv, write: (line: string) => void, options: { ownGroup?: boolean } = {}): Promise<number> {
  const url = env[JOB_ENV.url];
  const token = env[JOB_ENV.token];
  const command = env[JOB_ENV.command];
  const runId = env[COMMAND_ENV.runId];
  for (const [name, value] of [[JOB_ENV.url, url], [JOB_ENV.token, token], [JOB_ENV.command, command], [COMMAND_ENV.runId, runId]] as const) {
    if (!value) {
      write(`agent-runs-job-entrypoint: ${name} is not set; this command runs in a pod made by agent-runs-worker --backend kubernetes.`);
      return 2;
    }
  }
  const base = `${url!.replace(/\/+$/, '')}/runs/${encodeURIComponent(runId!)}`;
  const own = mkdtempSync(join(tmpdir(), 'agent-runs-job-'));
  const usageFile = join(own, 'usage.json');
  mkdirSync(join(own, ARTIFACTS), { mode: 0o700 });
  const fileLimits = fileLimitsFrom(env[JOB_ENV.fileLimits]);
  const agentEnv: NodeJS.ProcessEnv = { ...env, [JOB_ENV.usageFile]: usageFile, [COMMAND_ENV.artifactsDir]: join(own, ARTIFACTS) };
  delete agentEnv[JOB_ENV.token];
  delete agentEnv[JOB_ENV.url];
  delete agentEnv[JOB_ENV.command];
  delete agentEnv[JOB_ENV.fileLimits];

  const post = async (path: string, body: unknown, bytes?: Buffer): Promise<Sent> => {
    const backoff = new Backoff({ firstMs: 100, maxMs: 5_000, jitter: 0.2 });
    const until = Date.now() + RETRY_FOR_MS;
    while (Date.now() < until) {
      try {
        const answer = await fetch(`${base}/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': bytes ? 'application/octet-stream' : 'application/json' },
          body: bytes ?? JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await answer.text().catch(() => '');
        if (answer.ok) return 'taken';
        if (answer.status === 410) return 'gone';
        if (answer.status < 500 && answer.status !== 429 && answer.status !== 408) {
          write(`agent-runs-job-entrypoint: the worker refused the ${path} (${answer.status} ${text.trim().slice(0, 200)}).`);
          return 'refused';
        }
      } catch {
        // No answer: the worker restarts, or is on its way; tried again.
      }
      await sleep(backoff.next());
    }
    write(`agent-runs-job-entrypoint: the worker did not answer for ${RETRY_FOR_MS / 60_000} minutes; giving up.`);
    return 'gave-up';
  };

  // In a pod, in the entrypoint's own process group: whatever ends the container (a delete, the
  // deadline, an OOM kill) ends the agent's whole tree with it. Dispatched (no container around
  // it), in a group of its own, stopped whole: `/bin/sh -c` need not exec the agent, and a stop
  // the worker tells of (410) must reach the agent and what it started, not the shell alone.
  const ownGroup = options.ownGroup === true;
  const child = spawn('/bin/sh', ['-c', command!], { env: agentEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: ownGroup });
  const stopAgent = (signal: NodeJS.Signals) => {
    if (!ownGroup) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return;
    }
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // Its group is gone already.
    }
  };
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    stopAgent('SIGTERM');
    setTimeout(() => stopAgent('SIGKILL'), STOP_GRACE_MS).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  // One output request in flight; lines printed meanwhile go in the next, in order.
  const queue: Line[] = [];
  let queued = 0;
  let dropped = 0;
  let sending: Promise<void> | undefined;
  let gone = false;
  /** When the worker last heard from this entrypoint, and whether it is being asked now. */
  let lastAsked = Date.now();
  let asking = false;
  const pump = (): Promise<void> =>
    (sending ??= (async () => {
      while (queue.length && !gone) {
        if (dropped) {
          queue.unshift({ stream: 'stderr', text: `[agent-runs] ${dropped} line(s) of the agent's output were dropped while the worker did not answer.\n` });
          dropped = 0;
        }
        // Well under the listener's body limit: at most MAX_JOB_LINES lines, and 512 Ki characters unless one line is more (at most 6 bytes each in JSON: under the 4 MiB).
        let count = 0;
        let chars = 0;
        while (count < queue.length && count < MAX_JOB_LINES && (count === 0 || chars + queue[count]!.text.length <= BATCH_CHARS)) chars += queue[count++]!.text.length;
        const lines = queue.splice(0, count);
        lastAsked = Date.now();
        queued = Math.max(0, queued - chars);
        if ((await post('output', { lines })) === 'gone') {
          gone = true;
          stop();
        }
      }
      sending = undefined;
    })());
  const streamLines = (stream: 'stdout' | 'stderr', source: NodeJS.ReadableStream) =>
    new Promise<void>((resolve) => {
      let pending = '';
      const emit = (whole: string) => {
        const text = whole.slice(0, MAX_JOB_LINE_CHARS);
        (stream === 'stdout' ? process.stdout : process.stderr).write(text);
        // While the worker does not answer (a restart), what waits is bounded; the pod's log keeps it all.
        if (queued + text.length > MAX_QUEUED_CHARS) {
          dropped++;
          return;
        }
        queue.push({ stream, text });
        queued += text.length;
        void pump();
      };
      source.setEncoding('utf8');
      source.on('data', (chunk: string) => {
        pending += chunk;
        let at: number;
        while ((at = pending.indexOf('\n')) >= 0) {
          emit(pending.slice(0, at + 1));
          pending = pending.slice(at + 1);
        }
        while (pending.length > MAX_JOB_LINE_CHARS) {
          emit(pending.slice(0, MAX_JOB_LINE_CHARS));
          pending = pending.slice(MAX_JOB_LINE_CHARS);
        }
      });
      source.on('end', () => {
        if (pending) emit(pending);
        resolve();
      });
    });
  // A quiet agent's entrypoint still asks, now and then, whether the run runs on.
  const heartbeat = setInterval(() => {
    if (gone || asking || sending || Date.now() - lastAsked < JOB_HEARTBEAT_MS) return;
    asking = true;
    void post('alive', {}).then((sent) => {
      asking = false;
      lastAsked = Date.now();
      if (sent === 'gone') {
        gone = true;
        stop();
      }
      // A worker that does not know the heartbeat (an older one) is not asked again.
      if (sent === 'refused') clearInterval(heartbeat);
    });
  }, Math.min(1_000, JOB_HEARTBEAT_MS));
  heartbeat.unref();
  const drained = Promise.all([streamLines('stdout', child.stdout!), streamLines('stderr', child.stderr!)]);
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error) => {
      write(`agent-runs-job-entrypoint: could not start the agent: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  clearInterval(heartbeat);
  await drained;
  while (sending) await sending;
  if (gone) return 1;
  // The files the agent left: read as the local executor reads them (no link followed, within the run's limits), then sent one at a time.
  if (!(await sendFiles(own, fileLimits, post, write, (text) => {
    queue.push({ stream: 'stderr', text: `[agent-runs] ${text}\n` });
    void pump();
  }))) return 1;
  while (sending) await sending;
  if (gone) return 1;
  const end: JobEnd = { exit_code: exit.code, signal: exit.signal, ...(await usageIn(usageFile, write)) };
  // Dispatched, no container goes away with it: what the agent left is not left behind on the machine.
  try {
    rmSync(own, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // A directory the agent made unreadable: left to the temp directory's own cleanup, the end is what matters.
  }
  await post('end', end);
  return exit.code ?? 1;
}

/** The files' directory, beside the usage file in the entrypoint's own temporary directory. */
const ARTIFACTS = 'artifacts';

/** Sends the artifacts directory's files; false when the worker says the run is over here. Notes on what was left out go to `note`. */
async function sendFiles(
  own: string,
  limits: FileLimits,
  post: (path: string, body: unknown, bytes?: Buffer) => Promise<Sent>,
  write: (line: string) => void,
  note: (text: string) => void,
): Promise<boolean> {
  // Loaded only now, as the schemas are: nothing on the way of the agent's start.
  const { collectArtifactFiles } = await import('../../executors/collect-artifact-files.js');
  let found: ReturnType<typeof collectArtifactFiles>;
  try {
    found = collectArtifactFiles(
      own,
      join(own, ARTIFACTS),
      { maxFileBytes: limits.max_file_bytes, maxRunBytes: limits.max_run_bytes, maxArtifactsPerExecution: limits.max_count },
      limits.used_bytes,
      limits.max_count,
    );
  } catch (error) {
    // The agent's end is still told: a run without its files rather than a run lost.
    note(`the artifacts directory could not be read (${(error as Error).message}); no files were sent.`);
    return true;
  }
  for (const text of found.notes) note(text);
  for (const artifact of found.artifacts) {
    const path = String(artifact.data['filepath']);
    const sent = await post(`files?path=${encodeURIComponent(path)}`, undefined, artifact.content);
    if (sent === 'gone') return false;
    if (sent !== 'taken') {
      write(`agent-runs-job-entrypoint: artifact ${JSON.stringify(path)} was not sent.`);
      note(`artifact ${JSON.stringify(path)} was not taken by the worker; left out.`);
    }
  }
  return true;
}

async function usageIn(file: string, write: (line: string) => void): Promise<{ usage?: RequestUsage }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  // Loaded only now: the API's schemas would slow the entrypoint's start, which every run's start waits on.
  const { RequestUsageSchema } = await import('@agent-runs/core/contract');
  try {
    const parsed = RequestUsageSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { usage: parsed.data };
  } catch {
    // Said below.
  }
  write(`agent-runs-job-entrypoint: ${JOB_ENV.usageFile} does not hold the API's request usage as JSON; it is not reported.`);
  return {};
}
