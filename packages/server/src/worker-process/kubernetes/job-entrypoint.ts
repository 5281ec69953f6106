import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestUsage, RunStatusMessage } from '@agent-runs/core/contract';
import { Backoff } from '../../domain/backoff.js';
import { COMMAND_ENV } from '../../executors/command-env.js';
import { runWorkDir } from '../../executors/run-work-dir.js';
import { fileLimitsFrom, JOB_ENV, JOB_HEARTBEAT_MS, MAX_JOB_LINE_CHARS, MAX_JOB_LINES, type FileLimits } from './job-limits.js';
import type { JobEnd, JobOutput, JobState } from './job-protocol.js';
import { entrypointMask, maskedEnd } from './entrypoint-mask.js';
import type { Execution, HarnessState } from '../../executors/run-executor.js';
import type { FollowupMessage } from '../../executors/execution-input.js';
import { appendAgentFile } from '../../executors/agent-files.js';
import { retryable } from '../worker-connection.js';
import type { NewArtifact } from '../../store/artifacts/artifact-store.js';

/** How long the worker may not answer (a restart, a rollout) before the entrypoint gives up, unless AGENT_RUNS_JOB_RETRY_SECONDS says. */
const DEFAULT_RETRY_SECONDS = 15 * 60;
/** The longest AGENT_RUNS_JOB_RETRY_SECONDS taken: a day. */
const MAX_RETRY_SECONDS = 24 * 60 * 60;
/** Text in one output request, at most (a longer line goes alone). */
const BATCH_CHARS = 512 * 1024;
/** Output waiting for the worker, at most; past it, lines are counted and dropped. */
const MAX_QUEUED_CHARS = 32 * 1024 * 1024;
/** After SIGTERM, how long the agent has before it is killed. */
const STOP_GRACE_MS = 5_000;
/**
 * After SIGTERM or SIGINT, how long what is left to report waits for a worker that does not
 * answer, in place of the retry window: whoever stops the entrypoint wants it gone (a kubelet's
 * grace, Nomad's kill_timeout), not waiting out a worker's restart for minutes.
 */
const STOPPED_SILENCE_MS = 10_000;
/** An empty answer to a follow-up fetch sooner than this (a worker that does not wait) is followed by a pause of this long before the next. */
const FOLLOWUP_FETCH_MIN_MS = 1_000;

type Sent = 'taken' | 'gone' | 'refused' | 'gave-up';
type Line = JobOutput['lines'][number];

/**
 * Inside a Job's pod: runs the agent command (`/bin/sh -c`), passes its output on as it
 * comes, line by line, to the worker that made the Job, then how it ended and the usage it
 * wrote; exits with the agent's code. Reports wait out a worker's restart (tried again while
 * the worker has not answered for up to 15 minutes, AGENT_RUNS_JOB_RETRY_SECONDS; 10 s once
 * SIGTERM or SIGINT has stopped the agent); a worker that says the run is over here (410) has
 * the agent stopped, asked every few seconds while the agent is quiet (a cancel where no
 * cluster ends the pod).
 * The agent gets neither the run's token nor where to report.
 */
export async function runJobEntrypoint(env: NodeJS.ProcessEnv, write: (line: string) => void): Promise<number> {
  const url = env[JOB_ENV.url];
  const token = env[JOB_ENV.token];
  const command = env[JOB_ENV.command];
  const runId = env[COMMAND_ENV.runId];
  const harnessText = env[JOB_ENV.harness];
  const apiToken = env[JOB_ENV.apiToken];
  // A harness execution needs no command: the worker's harness settings say what runs.
  for (const [name, value] of [[JOB_ENV.url, url], [JOB_ENV.token, token], [JOB_ENV.command, harnessText ? 'harness' : command], [COMMAND_ENV.runId, runId]] as const) {
    if (!value) {
      write(`agent-runs-job-entrypoint: ${name} is not set; this command runs in a pod made by agent-runs-worker --backend kubernetes.`);
      return 2;
    }
  }
  // The run's API token and its environment's secrets, in every form they may be printed in, are not passed on (as the server masks them in an agent's output).
  const masker = entrypointMask(env);
  if ('problem' in masker) {
    write(`agent-runs-job-entrypoint: ${masker.problem}; nothing is run, as its secrets could not be masked.`);
    return 2;
  }
  const mask = (text: string) => masker.mask(text);
  const retryText = env[JOB_ENV.retrySeconds] || undefined;
  const retrySeconds = retryText === undefined ? DEFAULT_RETRY_SECONDS : /^\d{1,6}$/.test(retryText) ? Number(retryText) : Number.NaN;
  if (!(retrySeconds >= 1 && retrySeconds <= MAX_RETRY_SECONDS)) {
    write(`agent-runs-job-entrypoint: ${JOB_ENV.retrySeconds} must be a whole number of seconds from 1 to ${MAX_RETRY_SECONDS}, got ${JSON.stringify(String(retryText).slice(0, 40))}; nothing is run.`);
    return 2;
  }
  const retryForMs = retrySeconds * 1000;
  const base = `${url!.replace(/\/+$/, '')}/runs/${encodeURIComponent(runId!)}`;
  const workspaceText = env[JOB_ENV.workspace];
  // In a pod, its emptyDir volume: scratch space the cluster sizes and removes with the pod.
  const own = mkdtempSync(join(env[JOB_ENV.workRoot] || tmpdir(), 'agent-runs-job-'));
  const usageFile = join(own, 'usage.json');
  const reportFile = join(own, REPORT);
  writeFileSync(reportFile, '', { mode: 0o600 });
  // The follow-ups sent while the agent runs, a JSON line each, as the local command executor's inbox.
  const inboxFile = join(own, INBOX);
  writeFileSync(inboxFile, '', { mode: 0o600 });
  mkdirSync(join(own, ARTIFACTS), { mode: 0o700 });
  const fileLimits = fileLimitsFrom(env[JOB_ENV.fileLimits]);
  const agentEnv: NodeJS.ProcessEnv = { ...env, [JOB_ENV.usageFile]: usageFile, [COMMAND_ENV.artifactsDir]: join(own, ARTIFACTS), [COMMAND_ENV.reportFile]: reportFile };
  delete agentEnv[JOB_ENV.token];
  delete agentEnv[JOB_ENV.url];
  delete agentEnv[JOB_ENV.command];
  delete agentEnv[JOB_ENV.fileLimits];
  delete agentEnv[JOB_ENV.harness];
  delete agentEnv[JOB_ENV.apiToken];
  delete agentEnv[JOB_ENV.workspace];
  delete agentEnv[JOB_ENV.workRoot];
  delete agentEnv[JOB_ENV.masked];
  delete agentEnv[JOB_ENV.maskedDir];
  delete agentEnv[JOB_ENV.retrySeconds];
  // The run's API token, for an agent that starts child runs, as a process-backend worker gives it (a harness gets it through its executor).
  if (apiToken && !harnessText) agentEnv[COMMAND_ENV.runToken] = apiToken;
  if (!harnessText) agentEnv[COMMAND_ENV.inboxFile] = inboxFile;

  // When the worker last answered anything but "try again". Every request is tried again only
  // while that is within the window: a worker gone for good is given up on once, not once per
  // request (its output, each file, the end, the heartbeat), which kept a pod alive for as many
  // windows.
  let heardAt = Date.now();
  let gaveUp = false;
  /** The signal that stopped the entrypoint, and when. */
  let signalled: { name: NodeJS.Signals; at: number } | undefined;
  /** Until when an unanswered request is tried again: from the last answer, shorter once signalled. */
  const triesUntil = () => (signalled ? Math.min(heardAt + retryForMs, Math.max(heardAt, signalled.at) + STOPPED_SILENCE_MS) : heardAt + retryForMs);
  /** A request to the worker, tried again while it does not answer; a GET's body comes back with it. */
  const request = async (method: 'POST' | 'GET', path: string, body?: unknown, bytes?: Buffer, stopped?: AbortSignal): Promise<{ sent: Sent; said: string; body?: Buffer }> => {
    const backoff = new Backoff({ firstMs: 100, maxMs: 5_000, jitter: 0.2 });
    while (Date.now() < triesUntil()) {
      if (stopped?.aborted) return { sent: 'gave-up', said: 'stopped' };
      try {
        const answer = await fetch(`${base}/${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'content-type': bytes ? 'application/octet-stream' : 'application/json' } : {}) },
          ...(method === 'POST' ? { body: bytes ?? JSON.stringify(body) } : {}),
          signal: stopped ? AbortSignal.any([AbortSignal.timeout(30_000), stopped]) : AbortSignal.timeout(30_000),
        });
        // A 5xx, 429 or 408 is no answer from the worker (a proxy in front of one that is gone answers so).
        const unanswered = retryable(answer.status);
        if (!unanswered) heardAt = Date.now();
        if (answer.ok && method === 'GET') return { sent: 'taken', said: '', body: Buffer.from(await answer.arrayBuffer()) };
        const text = await answer.text().catch(() => '');
        if (answer.ok) return { sent: 'taken', said: '' };
        if (answer.status === 410) return { sent: 'gone', said: text.trim() };
        if (!unanswered) {
          const said = `${answer.status} ${text.trim().slice(0, 200)}`;
          write(`agent-runs-job-entrypoint: the worker refused the ${path} (${said}).`);
          return { sent: 'refused', said };
        }
      } catch {
        // No answer: the worker restarts, or is on its way; tried again.
      }
      await sleep(backoff.next(), undefined, stopped ? { signal: stopped } : undefined).catch(() => undefined);
    }
    if (!gaveUp) {
      gaveUp = true;
      write(
        signalled
          ? `agent-runs-job-entrypoint: stopped (${signalled.name}), and the worker did not answer within ${STOPPED_SILENCE_MS / 1000} s; giving up, its agent stopped.`
          : `agent-runs-job-entrypoint: the worker did not answer for ${retrySeconds} s; giving up, its agent stopped.`,
      );
      // The run's lease ran out long before: its server has ended it, and what the agent does reaches nobody.
      gone = true;
      stop();
    }
    return { sent: 'gave-up', said: `no answer for ${retrySeconds} s` };
  };
  const post = async (path: string, body: unknown, bytes?: Buffer): Promise<Sent> => (await request('POST', path, body, bytes)).sent;

  // How the running agent is stopped (a cancel, the pod's SIGTERM): its command's group, or its harness's execution.
  let stopAgent: (() => void) | undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    stopAgent?.();
  };
  // Once each: a second signal takes its default action, ending the entrypoint at once.
  for (const name of ['SIGTERM', 'SIGINT'] as const) {
    process.once(name, () => {
      signalled ??= { name, at: Date.now() };
      stop();
    });
  }
  /** The agent is started: a stop asked for meanwhile reaches it now. */
  const setStop = (how: () => void) => {
    stopAgent = how;
    if (stopping) how();
  };

  // One output request in flight; lines printed meanwhile go in the next, in order.
  const queue: Line[] = [];
  let queued = 0;
  let dropped = 0;
  let sending: Promise<void> | undefined;
  let gone = false;
  /** When the worker last heard from this entrypoint, and whether it is being asked now. */
  let lastAsked = Date.now();
  let asking = false;
  /** A harness's latest state not yet sent; sent after the lines queued before it. */
  let pendingState: JobState | undefined;
  /** Cleared when the worker does not know `state` (an older one): the end carries it all the same. */
  let stateTaken = true;
  // Started only with something to send: its loop then awaits before it clears `sending`, so the
  // clear comes after the assignment. A loop with nothing to do (a line printed once the worker
  // said the run is over) would clear it first and leave `sending` a settled promise for good:
  // every wait on it after (`while (sending) await sending`) spun without end, the event loop starved.
  const pump = (): Promise<void> => {
    if (sending || gone || (!queue.length && !pendingState)) return sending ?? Promise.resolve();
    return (sending = (async () => {
      while ((queue.length || pendingState) && !gone) {
        if (!queue.length) {
          const state = pendingState!;
          pendingState = undefined;
          lastAsked = Date.now();
          const sent = await post('state', state);
          if (sent === 'gone') {
            gone = true;
            stop();
          }
          if (sent === 'refused') stateTaken = false;
          continue;
        }
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
  };
  /** Cuts what an agent prints into lines as they come, each passed on (and mirrored to the pod's log). */
  const lineFeeder = (stream: 'stdout' | 'stderr') => {
    let pending = '';
    const emit = (whole: string) => {
      const text = mask(whole.slice(0, MAX_JOB_LINE_CHARS));
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
    return {
      push(chunk: string) {
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
      },
      end() {
        if (pending) emit(pending);
        pending = '';
      },
    };
  };
  const feeders = { stdout: lineFeeder('stdout'), stderr: lineFeeder('stderr') };
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
  // Once the agent runs: the follow-ups sent to the run meanwhile, fetched and handed to it as the local executors do, until it ends.
  const fetching = new AbortController();
  let fetched: Promise<void> | undefined;
  const takeFollowups = (hand: (followup: FollowupMessage) => boolean): void => {
    fetched ??= fetchFollowups({
      request,
      stopped: fetching.signal,
      hand,
      write,
      gone: () => {
        gone = true;
        stop();
      },
    });
  };
  const note = (text: string) => {
    // A note may quote what the agent wrote (a file's name, a report line).
    queue.push({ stream: 'stderr', text: mask(`[agent-runs] ${text}\n`) });
    void pump();
  };
  let ended: AgentEnded | undefined;
  // The run's working directory, when it has one to prepare: the harness's (under its work root) or the command's.
  const workDir = workspaceText ? runWorkDir(join(own, harnessText ? HARNESS : WORK), runId!) : undefined;
  let changesStart: RepoStarts = [];
  try {
    if (workspaceText) {
      // A run over here (410) while its patches are fetched: the setup is not started.
      const fetch = async (method: 'GET', path: string) => {
        const got = await request(method, path);
        if (got.sent === 'gone') {
          gone = true;
          stop();
        }
        return got;
      };
      const ready = await prepared({ text: workspaceText, own, workDir: workDir!, env: agentEnv, runId: runId!, request: fetch, feeders, setStop, command: !harnessText });
      if ('failure' in ready) ended = { end: { exit_code: 1, signal: null, status_message: statusOf(ready.failure) }, files: [] };
      else changesStart = ready.changesStart;
    }
    // Stopped before its agent started (during the workspace's preparation, say): none is started.
    if (signalled && !ended) ended = { end: { exit_code: null, signal: signalled.name, status_message: { message: `The run's entrypoint was stopped (${signalled.name}) before its agent started.`, retryable: true } }, files: [] };
    ended ??= harnessText
      ? await runHarness({
          text: harnessText,
          env: agentEnv,
          own,
          apiToken,
          feeders,
          setStop,
          write,
          note,
          takeFollowups,
          stateChanged: (state) => {
            if (!stateTaken) return;
            pendingState = { ...(state.requestUsage ? { usage: state.requestUsage } : {}), ...(state.harnessSessionId ? { harness_session_id: state.harnessSessionId } : {}) };
            void pump();
          },
        })
      : await runCommand({
          command: command!,
          env: agentEnv,
          usageFile,
          feeders,
          setStop,
          write,
          // As the local command executor's deliver: a JSON line appended to the inbox (refused if the agent made it anything but a file).
          takeFollowups: () => takeFollowups((followup) => appendAgentFile(inboxFile, `${JSON.stringify(followup)}\n`)),
          ...(workDir ? { cwd: workDir } : {}),
        });
  } finally {
    clearInterval(heartbeat);
    fetching.abort();
    await fetched;
  }
  while (sending) await sending;
  if (gone) return 1;
  // The files the agent left: read as the local executor reads them (no link followed, within the run's limits), then sent one at a time.
  let { end } = ended;
  let files: FileToSend[];
  if (ended.files === 'collect') {
    // The command's report file and artifacts directory, read as the local command executor reads them.
    const report = await reported(own, fileLimits, note, workDir ? { workDir, starts: changesStart } : undefined);
    files = report.files;
    end = {
      ...end,
      ...(report.others.length ? { artifacts: report.others } : {}),
      ...(report.takenFollowups.length ? { taken_followups: report.takenFollowups } : {}),
      ...(end.exit_code === 0 && report.result ? { status_message: { message: report.result } } : {}),
    };
  } else files = ended.files;
  if (!(await sendFiles(files, post, write, note, mask))) return 1;
  while (sending) await sending;
  if (gone) return 1;
  // Dispatched, no container goes away with it: what the agent left is not left behind on the machine.
  try {
    rmSync(own, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // A directory the agent made unreadable: left to the temp directory's own cleanup, the end is what matters.
  }
  await post('end', maskedEnd(masker, end));
  return end.exit_code ?? 1;
}

/** The harness's work root and the command's, in the entrypoint's own directory: the run's working directory is `<it>/<run id>`. */
const HARNESS = 'harness';
const WORK = 'work';

/**
 * The run's workspace (`AGENT_RUNS_JOB_WORKSPACE`) prepared by the server's own code
 * (`pod-workspace.ts`), its output streamed as the agent's; for a command, what its
 * repositories hold then, so that its end hands back what the agent changed as the local
 * command executor does (a harness's executor does so itself).
 */
async function prepared(o: {
  text: string;
  own: string;
  workDir: string;
  env: NodeJS.ProcessEnv;
  runId: string;
  request(method: 'GET', path: string): Promise<{ sent: Sent; said: string; body?: Buffer }>;
  feeders: Feeders;
  setStop(how: () => void): void;
  command: boolean;
}): Promise<{ failure: RunStatusMessage } | { changesStart: RepoStarts }> {
  // Loaded only for a workspace: a run without one starts without them.
  const { parseJobWorkspace, preparePodWorkspace } = await import('./pod-workspace.js');
  const { recordChangesStart } = await import('../../executors/changes-patch.js');
  let workspace;
  try {
    workspace = parseJobWorkspace(o.text);
  } catch (error) {
    return { failure: { message: `The run's workspace could not be read: ${(error as Error).message}`, retryable: false } };
  }
  const failure = await preparePodWorkspace({
    workspace,
    workDir: o.workDir,
    env: o.env,
    onOutput: (text) => o.feeders.stdout.push(text),
    fetchPatch: async (index) => {
      const got = await o.request('GET', `patches/${index}`);
      return got.body ?? { problem: got.said || got.sent };
    },
    setStop: o.setStop,
  });
  o.feeders.stdout.end();
  if (failure) return { failure };
  return { changesStart: o.command ? recordChangesStart(o.own, o.workDir) : [] };
}

/** The files' directory, beside the usage file in the entrypoint's own temporary directory. */
const ARTIFACTS = 'artifacts';
/** The command's report file, beside them. */
const REPORT = 'report.jsonl';
/** The command's inbox of follow-ups, beside them. */
const INBOX = 'inbox.jsonl';

type Request = (method: 'POST' | 'GET', path: string, body?: unknown, bytes?: Buffer, stopped?: AbortSignal) => Promise<{ sent: Sent; said: string; body?: Buffer }>;

/**
 * Fetches the follow-ups sent to the run while its agent runs (`GET followups`, a long poll
 * the worker answers when one comes), each handed to the agent once (an answer given again
 * after a lost one is skipped), until `stopped`. A worker that says the run is over (410)
 * stops the agent; one that knows no follow-ups (older) is not asked again.
 */
async function fetchFollowups(o: { request: Request; stopped: AbortSignal; hand(followup: FollowupMessage): boolean; write(line: string): void; gone(): void }): Promise<void> {
  let after: string | undefined;
  const given = new Set<string>();
  while (!o.stopped.aborted) {
    const asked = Date.now();
    const got = await o.request('GET', `followups${after ? `?after=${encodeURIComponent(after)}` : ''}`, undefined, undefined, o.stopped);
    if (o.stopped.aborted) return;
    if (got.sent === 'gone') return o.gone();
    if (got.sent !== 'taken') return;
    const followups = followupsIn(got.body);
    if (!followups) {
      o.write("agent-runs-job-entrypoint: the worker's answer holds no list of follow-ups; none is fetched again.");
      return;
    }
    let fresh = 0;
    for (const followup of followups) {
      if (given.has(followup.id)) continue;
      given.add(followup.id);
      fresh++;
      if (!o.hand(followup)) o.write(`agent-runs-job-entrypoint: the agent could not take follow-up ${followup.id} now; the run's next execution answers it.`);
    }
    if (followups.length) after = followups.at(-1)!.id;
    // A worker that answers at once with nothing new is asked again after a pause, not in a busy loop.
    if (!fresh && Date.now() - asked < FOLLOWUP_FETCH_MIN_MS) await sleep(FOLLOWUP_FETCH_MIN_MS, undefined, { signal: o.stopped }).catch(() => undefined);
  }
}

const FOLLOWUP_ID = /^[A-Za-z0-9_-]{1,100}$/;
const optionalText = (value: unknown): value is string | undefined => value === undefined || typeof value === 'string';

/** The follow-ups of the worker's answer (`{ "followups": [...] }`), each as the agent gets it; undefined when it holds anything else (no schema library: the entrypoint loads none while its agent runs). */
function followupsIn(body: Buffer | undefined): FollowupMessage[] | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body?.toString('utf8') ?? '');
  } catch {
    return undefined;
  }
  const list = (json as { followups?: unknown } | null)?.followups;
  if (!Array.isArray(list)) return undefined;
  const followups: FollowupMessage[] = [];
  for (const item of list as Record<string, unknown>[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { id, message, mode, created_at, kind, sender_run_id, subject } = item;
    if (typeof id !== 'string' || !FOLLOWUP_ID.test(id) || typeof message !== 'string' || typeof created_at !== 'string') return undefined;
    if (!(mode === null || typeof mode === 'string') || !(kind === undefined || kind === 'agent_message') || !optionalText(sender_run_id) || !optionalText(subject)) return undefined;
    followups.push({ id, message, mode, created_at, ...(kind ? { kind } : {}), ...(sender_run_id !== undefined ? { sender_run_id } : {}), ...(subject !== undefined ? { subject } : {}) });
  }
  return followups;
}

/** A file the agent left, for the worker: its path in the artifacts directory, its bytes. */
interface FileToSend {
  path: string;
  content: Buffer;
}

/** What the run's repositories held as the agent began (`recordChangesStart`), for its changes.patch. */
type RepoStarts = ReturnType<typeof import('../../executors/changes-patch.js').recordChangesStart>;

/** A line feeder per stream of the agent's output. */
type Feeders = Record<'stdout' | 'stderr', { push(chunk: string): void; end(): void }>;

/** How the agent ended, and which files go back: those given, or (`collect`) the artifacts directory's. */
type AgentEnded = { end: JobEnd; files: FileToSend[] | 'collect' };

/**
 * The worker's `--command` with `/bin/sh -c`, in a process group of its own, stopped whole:
 * `/bin/sh -c` need not exec the agent (a compound line, a shell that forks), and a stop (the
 * pod's SIGTERM, which a kubelet sends the entrypoint alone; a stop the worker tells of with
 * a 410) must reach the agent and what it started, not the shell alone, so the agent stops
 * on its own and its end is reported. What outlives that goes with the container, or
 * dispatched, with the group's SIGKILL after the grace.
 */
async function runCommand(o: {
  command: string;
  env: NodeJS.ProcessEnv;
  usageFile: string;
  feeders: Feeders;
  setStop(how: () => void): void;
  write(line: string): void;
  /** The run's working directory, when it has one; else the entrypoint's own (the image's). */
  cwd?: string;
  /** The agent started: follow-ups sent from now on go to its inbox. */
  takeFollowups(): void;
}): Promise<AgentEnded> {
  const child = spawn('/bin/sh', ['-c', o.command], { env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(o.cwd ? { cwd: o.cwd } : {}) });
  o.takeFollowups();
  const signalAgent = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // Its group is gone already.
    }
  };
  o.setStop(() => {
    signalAgent('SIGTERM');
    setTimeout(() => signalAgent('SIGKILL'), STOP_GRACE_MS).unref();
  });
  const drain = (stream: 'stdout' | 'stderr', source: NodeJS.ReadableStream) =>
    new Promise<void>((resolve) => {
      source.setEncoding('utf8');
      source.on('data', (chunk: string) => o.feeders[stream].push(chunk));
      source.on('end', () => {
        o.feeders[stream].end();
        resolve();
      });
    });
  const drained = Promise.all([drain('stdout', child.stdout!), drain('stderr', child.stderr!)]);
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error) => {
      o.write(`agent-runs-job-entrypoint: could not start the agent: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  await drained;
  return { end: { exit_code: exit.code, signal: exit.signal, ...(await usageIn(o.usageFile, o.write)) }, files: 'collect' };
}

/**
 * A harness execution (`AGENT_RUNS_JOB_HARNESS`) through the server's own HarnessExecutor:
 * its output as it comes, its usage and session id with its end, the files and other
 * artifacts its report file and artifacts directory name (read by the executor, within the
 * run's limits) sent back, its failure said as the executor says it.
 */
async function runHarness(o: {
  text: string;
  env: NodeJS.ProcessEnv;
  own: string;
  apiToken: string | undefined;
  feeders: Feeders;
  setStop(how: () => void): void;
  write(line: string): void;
  note(text: string): void;
  /** The harness's state (its usage so far, its session id) changed: sent on while it runs. */
  stateChanged(state: HarnessState): void;
  /** The harness runs: follow-ups sent from now on go to its execution, as the server's executor takes them. */
  takeFollowups(hand: (followup: FollowupMessage) => boolean): void;
}): Promise<AgentEnded> {
  // Loaded only for a harness: the command's entrypoint starts without it.
  const { parseHarnessJob, startHarnessInPod } = await import('./harness-in-pod.js');
  let state: HarnessState = {};
  let execution: Execution;
  try {
    execution = startHarnessInPod({
      job: parseHarnessJob(o.text),
      env: o.env,
      workRoot: join(o.own, HARNESS),
      apiToken: o.apiToken,
      sinks: {
        onOutput: (text, stream = 'stdout') => o.feeders[stream].push(text.endsWith('\n') ? text : `${text}\n`),
        onHarnessState: async (update) => {
          state = { ...state, ...update };
          o.stateChanged(state);
        },
      },
    });
  } catch (error) {
    o.write(`agent-runs-job-entrypoint: ${(error as Error).message}`);
    return { end: { exit_code: 2, signal: null, status_message: { message: `The harness could not start: ${(error as Error).message}`.slice(0, 4_000), retryable: false } }, files: [] };
  }
  o.setStop(() => void execution.cancel());
  o.takeFollowups((followup) => execution.deliver?.(followup) ?? false);
  const outcome = await execution.done;
  o.feeders.stdout.end();
  o.feeders.stderr.end();
  const { files, others } = splitArtifacts(outcome.artifacts ?? [], o.note);
  const succeeded = outcome.state === 'SUCCEEDED';
  return {
    end: {
      exit_code: succeeded ? 0 : 1,
      signal: null,
      ...(state.requestUsage ? { usage: state.requestUsage } : {}),
      ...(state.harnessSessionId ? { harness_session_id: state.harnessSessionId } : {}),
      ...(outcome.statusMessage ? { status_message: statusOf(outcome.statusMessage) } : {}),
      ...(others.length ? { artifacts: others } : {}),
      ...(outcome.takenFollowups?.length ? { taken_followups: outcome.takenFollowups.slice(0, 1_000) } : {}),
    },
    files,
  };
}

/** A status message as the end carries it: its text within the end's bounds. */
function statusOf(status: RunStatusMessage): NonNullable<JobEnd['status_message']> {
  return {
    message: status.message.slice(0, 4_000),
    ...(typeof status.error_code === 'string' ? { error_code: status.error_code.slice(0, 64) } : {}),
    ...(typeof status.retryable === 'boolean' ? { retryable: status.retryable } : {}),
  };
}

/**
 * The command's report file (results, pull requests, plans, links) and its artifacts
 * directory's files, through the local executor's reader (`readAgentReport`: no link
 * followed, the report's size and the run's artifact limits held): the files to send, the
 * other artifacts for the end, and the result.
 */
async function reported(
  own: string,
  limits: FileLimits,
  note: (text: string) => void,
  changes?: { workDir: string; starts: RepoStarts },
): Promise<{ files: FileToSend[]; others: NonNullable<JobEnd['artifacts']>; result?: string; takenFollowups: string[] }> {
  // Loaded only now, as the schemas are: nothing on the way of the agent's start.
  const { readAgentReport } = await import('../../executors/agent-protocol.js');
  let report: ReturnType<typeof readAgentReport>;
  try {
    report = readAgentReport(
      { root: own, report: join(own, REPORT), artifacts: join(own, ARTIFACTS), conversation: '', followup: '', inbox: '', attachments: '' },
      {
        number: 1,
        followups: [],
        conversation: [],
        attachments: [],
        limits: { maxFileBytes: limits.max_file_bytes, maxRunBytes: limits.max_run_bytes, maxArtifactsPerExecution: limits.max_count },
        usedBytes: limits.used_bytes,
      },
    );
  } catch (error) {
    // The agent's end is still told: a run without its files rather than a run lost.
    note(`the report file and artifacts directory could not be read (${(error as Error).message}); nothing of them was sent.`);
    return { files: [], others: [], takenFollowups: [] };
  }
  for (const text of report.notes) note(text);
  if (changes) {
    // What the agent changed in the run's repositories, as the local command executor hands it back: its changes.patch.
    const { addChangesPatch, runGitAsServer } = await import('../../executors/changes-patch.js');
    addChangesPatch(report.artifacts, changes.workDir, changes.starts, runGitAsServer, note);
  }
  const { files, others } = splitArtifacts(report.artifacts, note);
  return { files, others, takenFollowups: report.takenFollowups.slice(0, 1_000), ...(report.result ? { result: report.result } : {}) };
}

/** Artifacts with bytes go as files (by their path in the artifacts directory), the others with the end. */
function splitArtifacts(artifacts: readonly NewArtifact[], note: (text: string) => void): { files: FileToSend[]; others: NonNullable<JobEnd['artifacts']> } {
  const files: FileToSend[] = [];
  const others: NonNullable<JobEnd['artifacts']> = [];
  for (const artifact of artifacts) {
    const path = artifact.data['filepath'];
    if (!artifact.content) others.push({ type: artifact.type, data: artifact.data });
    else if (typeof path === 'string') files.push({ path, content: artifact.content });
    else note(`a ${artifact.type} artifact has no file path; left out.`);
  }
  return { files, others };
}

/** Sends the agent's files one at a time; false when the worker says the run is over here. Notes on what was left out go to `note`. */
async function sendFiles(
  files: FileToSend[] | Promise<FileToSend[]>,
  post: (path: string, body: unknown, bytes?: Buffer) => Promise<Sent>,
  write: (line: string) => void,
  note: (text: string) => void,
  mask: (text: string) => string,
): Promise<boolean> {
  for (const { path: named, content } of await files) {
    // Its path is the artifact's name on the server: masked as the rest (its bytes are the agent's own).
    const path = mask(named);
    const sent = await post(`files?path=${encodeURIComponent(path)}`, undefined, content);
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
