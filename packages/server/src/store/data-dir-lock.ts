import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processStartTime } from '../domain/process-identity.js';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process a lock file names still holds it. The file records the server's
 * pid and start time: a live process with that pid but another start time only reuses
 * the pid of a server that is gone (after a kill -9 and a reboot, say).
 */
function stillHeld(pid: number, startTime: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isRunning(pid)) return false;
  const now = processStartTime(pid);
  return startTime === undefined || now === undefined || now === startTime;
}

/**
 * One server per data directory: a second one would take the first's running runs for
 * leftovers of a crash and fail them. A lock left by a killed server is taken over.
 * Returns the release function; throws the message for the user when the directory is in use.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'server.pid');
  const own = `${process.pid} ${processStartTime(process.pid) ?? ''}`.trim();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${own}\n`, { flag: 'wx', mode: 0o600 });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const [pidText = '', startTime] = readFileSync(file, 'utf8').trim().split(/\s+/);
      const holder = Number(pidText);
      if (stillHeld(holder, startTime)) {
        throw new Error(
          `The data directory ${dataDir} is in use by another server (process ${holder}, named in ${file}); stop it or choose another --data-dir. ` +
            `If process ${holder} is not an agent-runs server, ${file} is stale: delete it.`,
        );
      }
      rmSync(file, { force: true }); // Left by a server that is gone.
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}: ${file} keeps reappearing; is another server starting?`);
}
