import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One server per data directory: a second one would take the first's running runs for
 * leftovers of a crash and fail them. A lock left by a killed server is taken over.
 * Returns the release function; throws the message for the user when the directory is in use.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'server.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        throw new Error(`The data directory ${dataDir} is in use by another server (process ${holder}); stop it or choose another --data-dir.`);
      }
      rmSync(file, { force: true }); // Left by a server that is gone.
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}.`);
}
