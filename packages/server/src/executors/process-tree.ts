import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { hasProcFs, processStartTime, statFields } from '../domain/process-identity.js';
import { writeAgentFile } from './agent-files.js';
import { readAgentFile } from './agent-tree.js';
import { protocolDir } from './agent-protocol.js';
import type { ProcessGroupRecord } from './run-executor.js';

const SAMPLE_MS = 200;
/** Rounds of stopping what the tree holds before it is killed (each catches what forked meanwhile). */
const STOP_ROUNDS = 20;
/** Largest record read back after a restart. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** Where the tree of a run's bare agent is recorded, for a server started after a crash: beside its protocol files, the server's alone. */
export function processTreeFile(workRoot: string, runId: string): string {
  return join(protocolDir(workRoot, runId), 'processes.json');
}

/** Every process's parent and start time, from /proc/<pid>/stat (fields 4 and 22). */
function processTable(): Map<number, { ppid: number; start: string }> {
  const out = new Map<number, { ppid: number; start: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    if (fields) out.set(Number(name), { ppid: Number(fields[1]), start: fields[19]! });
  }
  return out;
}

/** Sends `signal` to `pid` if it is still the process that started at `start`. */
function signalProcess(pid: number, start: string, signal: NodeJS.Signals): void {
  if (processStartTime(pid) !== start) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * The whole tree an agent started, where no PID namespace holds it (the sandbox's ends with
 * it): descendants are looked up in /proc while it runs, so one that calls setsid (leaving
 * the process group) and is orphaned is still known, by pid and start time, and ended.
 * With a record file, what is known is written there as it changes, so a server started
 * after a crash ends the same tree (`ProcessTree.endRecorded`).
 */
export class ProcessTree {
  readonly #known: Map<number, string>;
  readonly #record: { path: string; root: ProcessGroupRecord } | undefined;
  #timer: NodeJS.Timeout | undefined;

  private constructor(known: Map<number, string>, record: { path: string; root: ProcessGroupRecord } | undefined) {
    this.#known = known;
    this.#record = record;
  }

  /** Watches the tree below `root` (the agent, its group's leader) while it runs. */
  static watch(root: number, record?: string): ProcessTree {
    const start = hasProcFs ? processStartTime(root) : undefined;
    const tree = new ProcessTree(new Map(start === undefined ? [] : [[root, start]]), record ? { path: record, root: { pgid: root, startTime: start ?? null } } : undefined);
    if (!hasProcFs) return tree;
    tree.sample(true);
    tree.#timer = setInterval(() => tree.sample(), SAMPLE_MS);
    tree.#timer.unref();
    return tree;
  }

  /**
   * Reads what is known now: processes that ended (or whose pid names another process now)
   * are forgotten, and every descendant of those still running is added.
   */
  sample(write = false): void {
    if (!hasProcFs) return;
    const table = processTable();
    let changed = write;
    for (const [pid, start] of this.#known) {
      if (table.get(pid)?.start === start) continue;
      this.#known.delete(pid);
      changed = true;
    }
    const byParent = new Map<number, number[]>();
    for (const [pid, { ppid }] of table) byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid]);
    const queue = [...this.#known.keys()];
    while (queue.length) {
      for (const child of byParent.get(queue.shift()!) ?? []) {
        if (this.#known.has(child)) continue;
        this.#known.set(child, table.get(child)!.start);
        changed = true;
        queue.push(child);
      }
    }
    if (changed) this.#write();
  }

  /** The record, replaced whole (written beside it, then renamed over it): a crash leaves the old one or the new one. */
  #write(): void {
    if (!this.#record) return;
    const { path, root } = this.#record;
    try {
      writeAgentFile(`${path}.new`, JSON.stringify({ root, processes: [...this.#known] }), undefined);
      renameSync(`${path}.new`, path);
    } catch {
      // The run's directory is gone; only a crash's recovery would have read it.
    }
  }

  /**
   * SIGKILL to every known descendant that is still the process it was: each is stopped
   * first, and the tree read again, until no new one shows (one that forks meanwhile
   * leaves no child behind); then the record is removed.
   */
  killAll(): number {
    clearInterval(this.#timer);
    const stopped = new Set<number>();
    for (let round = 0; round < STOP_ROUNDS; round++) {
      this.sample();
      const fresh = [...this.#known].filter(([pid]) => !stopped.has(pid));
      if (fresh.length === 0) break;
      for (const [pid, start] of fresh) {
        stopped.add(pid);
        signalProcess(pid, start, 'SIGSTOP');
      }
    }
    const killed = this.#known.size;
    for (const [pid, start] of this.#known) signalProcess(pid, start, 'SIGKILL');
    if (this.#record) rmSync(this.#record.path, { force: true });
    return killed;
  }

  /**
   * Ends the tree a server that crashed recorded for run `runId` under `workRoot`
   * (`processTreeFile`), read a name at a time from the work root, for the agent whose group is
   * `group` (a record of another agent is left alone), if any of it still runs: each
   * process by pid and start time, so a reused pid is spared, and whatever those started
   * since. The number of processes killed; without /proc nothing is killed.
   */
  static endRecorded(workRoot: string, runId: string, group: ProcessGroupRecord): number {
    if (!hasProcFs || group.startTime === null) return 0;
    const record = processTreeFile(workRoot, runId);
    const read = readAgentFile(workRoot, record, MAX_RECORD_BYTES);
    let processes: unknown;
    try {
      const parsed = JSON.parse(read.text) as { root?: Partial<ProcessGroupRecord>; processes?: unknown };
      if (parsed.root?.pgid !== group.pgid || parsed.root.startTime !== group.startTime) return 0;
      processes = parsed.processes;
    } catch {
      return 0;
    }
    if (!Array.isArray(processes)) return 0;
    const known = new Map<number, string>();
    for (const item of processes) {
      const [pid, start] = Array.isArray(item) ? (item as unknown[]) : [];
      if (Number.isInteger(pid) && (pid as number) > 1 && typeof start === 'string') known.set(pid as number, start);
    }
    return new ProcessTree(known, { path: record, root: group }).killAll();
  }
}
