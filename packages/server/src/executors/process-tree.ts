import { readdirSync, readFileSync } from 'node:fs';
import { hasProcFs, processStartTime } from '../domain/process-identity.js';

const SAMPLE_MS = 200;

/** Every process's parent, from /proc/<pid>/stat (field 4). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      out.set(Number(name), Number(fields[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/**
 * The whole tree an agent started, where no PID namespace holds it (the sandbox's ends with
 * it): descendants are looked up in /proc while it runs, so one that calls setsid (leaving
 * the process group) and is orphaned is still known, by pid and start time, and ended.
 */
export class ProcessTree {
  readonly #known = new Map<number, string>();
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(private readonly root: number) {
    if (!hasProcFs) return;
    this.sample();
    this.#timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.#timer.unref();
  }

  sample(): void {
    if (!hasProcFs) return;
    const byParent = new Map<number, number[]>();
    for (const [pid, ppid] of parents()) byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid]);
    const queue = [this.root, ...this.#known.keys()];
    const seen = new Set<number>();
    while (queue.length) {
      const pid = queue.shift()!;
      if (seen.has(pid)) continue;
      seen.add(pid);
      for (const child of byParent.get(pid) ?? []) {
        if (!this.#known.has(child)) {
          const start = processStartTime(child);
          if (start !== undefined) this.#known.set(child, start);
        }
        queue.push(child);
      }
    }
  }

  /** SIGKILL to every known descendant that is still the process it was. */
  killAll(): void {
    this.sample();
    clearInterval(this.#timer);
    for (const [pid, start] of this.#known) {
      if (processStartTime(pid) !== start) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
