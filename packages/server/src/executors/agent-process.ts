import { setTimeout as sleep } from 'node:timers/promises';
import { formatElapsed } from '@agent-runs/core/contract';
import { processStartTime } from '../domain/process-identity.js';
import { spawnAgent, type AgentSpawn } from './agent-spawn.js';
import { endGroup } from './process-group.js';
import { ProcessTree } from './process-tree.js';
import type { ProcessGroupRecord } from './run-executor.js';

/** How long a process group gets between SIGTERM and SIGKILL (every agent, and environment setup steps). */
export const KILL_GRACE_MS = 2000;
/** After the process exits, how long its last output may take to drain from the pipes. */
const OUTPUT_DRAIN_MS = 500;

/** How an agent's process ended. */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** It could not start (no such command, say). */
  error?: Error | undefined;
  /** It ran past its deadline and was stopped. */
  timedOut: boolean;
}

export interface SupervisedAgent {
  /** Its process group, as recorded in the store so that a server starting after a crash can end it. */
  processGroup: ProcessGroupRecord | undefined;
  /**
   * Resolves once the process exited and its last output was read (within a bounded
   * moment: something it left running may hold the pipes open for ever).
   */
  exited: Promise<AgentExit>;
  /** Ends it and whatever it started (the group; bare, the tree it made); resolves once they are gone. */
  end(): Promise<void>;
}

export interface SuperviseOptions {
  /** Past it the process is ended and `exited` says `timedOut`. */
  timeoutMs: number;
  /** Written to its stdin, which is then closed. */
  stdin?: string | undefined;
  /** Bare, where the tree it makes is recorded for a server started after a crash (`processTreeFile`). */
  treeRecord?: string | undefined;
  onStdout(text: string): void;
  onStderr(text: string): void;
}

/**
 * The one supervisor of an agent's process (the command agent, every harness CLI, each
 * environment setup step): started through the sandbox layer in a group of its own, its
 * output read as text, ended with its group at its deadline or on `end()`, and what it left
 * running ended with it once it exits. In the sandbox the PID namespace holds the whole
 * tree; bare, /proc is watched for it, so a child that called setsid goes too.
 */
export function superviseAgent(spec: AgentSpawn, options: SuperviseOptions): SupervisedAgent {
  const child = spawnAgent(spec);
  child.stdout.setEncoding('utf8').on('data', options.onStdout);
  child.stderr.setEncoding('utf8').on('data', options.onStderr);
  child.stdin.on('error', () => {}); // It may exit without reading its input.
  child.stdin.end(options.stdin ?? '');

  // 'exit', not 'close': a child it left running may hold the pipes open for ever.
  const exit = new Promise<Omit<AgentExit, 'timedOut'>>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const pgid = child.pid;
  // One ending, shared by every call: SIGTERM to the group, SIGKILL after the grace; bare,
  // then every descendant the tree knows, setsid ones included.
  const tree = pgid !== undefined && !spec.sandbox?.bwrap ? ProcessTree.watch(pgid, options.treeRecord) : undefined;
  let ending: Promise<void> | undefined;
  const end = () =>
    (ending ??=
      pgid === undefined
        ? Promise.resolve()
        : endGroup(pgid, KILL_GRACE_MS).then(() => {
            tree?.killAll();
          }));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void end();
  }, options.timeoutMs);

  const exited = exit.then(async (result) => {
    clearTimeout(timer);
    await Promise.race([closed, sleep(OUTPUT_DRAIN_MS)]);
    child.stdout.destroy();
    child.stderr.destroy();
    // What it left running in its group goes with it.
    void end();
    return { ...result, timedOut };
  });
  return {
    processGroup: pgid === undefined ? undefined : { pgid, startTime: processStartTime(pgid) ?? null },
    exited,
    end: () => {
      clearTimeout(timer);
      return end();
    },
  };
}

/**
 * How it ended, as the words after its name: "could not start: …", "ran longer than 30m and
 * was stopped", "was ended by SIGKILL" or "exited with code 2".
 */
export function howItEnded(exit: AgentExit, timeoutMs: number): string {
  if (exit.error) return `could not start: ${exit.error.message}`;
  if (exit.timedOut) return `ran longer than ${formatElapsed(timeoutMs)} and was stopped`;
  return exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** Whether it ran to its end and exited 0. */
export function exitedCleanly(exit: AgentExit): boolean {
  return !exit.error && !exit.timedOut && exit.code === 0;
}
