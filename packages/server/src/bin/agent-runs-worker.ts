#!/usr/bin/env node
import { ServerConfigError } from '../domain/server-config-error.js';
import { parseWorkerArgs, WORKER_HELP } from '../worker-process/worker-flags.js';
import { startWorker } from '../worker-process/start-worker.js';
import { startedByNpm, whenParentExits } from './exit-with-parent.js';

async function main(): Promise<void> {
  const parsed = parseWorkerArgs(process.argv.slice(2));
  if (parsed.help) {
    process.stdout.write(WORKER_HELP);
    return;
  }
  const worker = await startWorker(parsed.options);
  // The first signal drains (no new run, the held ones finish within --drain-timeout); a second stops them now.
  let signals = 0;
  const stop = () => {
    if (++signals === 1) worker.drain();
    else worker.stopNow();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (startedByNpm(process.env)) whenParentExits(() => worker.stopNow());
  await worker.done;
  process.exit(0);
}

main().catch((error: unknown) => {
  const known = error instanceof ServerConfigError || (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  process.stderr.write(`agent-runs-worker: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(2);
});
