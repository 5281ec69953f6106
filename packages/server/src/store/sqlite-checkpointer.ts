import { Worker } from 'node:worker_threads';
import { driverPath } from './sqlite-driver.js';

/** How often the thread checkpoints: each copies what about this long of writes added to the WAL. */
const CHECKPOINT_EVERY_MS = 100;
/** The longest a stop waits for the thread to finish its checkpoint and close; then it is ended. */
const STOP_WAIT_MS = 5000;

// A script, not a module file: it runs the same from the compiled package and from the sources.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
// PASSIVE: copies what no reader still needs, without waiting for or blocking anyone. A
// failure is not fatal: the next one tries again, and the server's connection checkpoints
// on its own once the WAL is long.
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * Checkpoints a WAL database from a thread of its own, with a connection of its own: the
 * copy of the WAL's pages into the database file and its two fsyncs are then not made on the
 * thread that answers requests, in the middle of whichever commit crossed the WAL's length
 * (SQLite's automatic checkpoint), but beside it. `exited` is called when the thread ends,
 * asked to or not.
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, exited: () => void) {
    this.worker = new Worker(THREAD, { eval: true, workerData: { driver: driverPath(), file, everyMs: CHECKPOINT_EVERY_MS }, execArgv: [] });
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        exited();
        resolve();
      }),
    );
    // A thread that fails ends (its exit is reported): not an error of the server.
    this.worker.on('error', () => {});
    // Never what keeps the process alive.
    this.worker.unref();
  }

  /** Asks the thread to close its connection and waits until it has ended (at most STOP_WAIT_MS). */
  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), STOP_WAIT_MS)));
    if (await Promise.race([this.exited.then(() => false), late])) await this.worker.terminate();
    clearTimeout(timer);
  }
}
