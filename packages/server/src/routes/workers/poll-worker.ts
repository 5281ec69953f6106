import { stream } from '../../http/reply.js';
import { problem } from '../../openapi/openapi-parts.js';
import { WorkerPollRequestSchema, WorkerPollResponseSchema } from '../../workers/worker-protocol.js';
import type { AppRoute } from '../app-context.js';
import { readWorkerBody, SMALL_MAX_BYTES } from './worker-body.js';
import { workerOperation } from './worker-operation.js';

/**
 * `POST /workers/poll`: renews the worker's leases and waits for work or a command. Runs
 * given in an answer that could not be delivered (the worker went away) go back in line.
 */
export const pollWorkerRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/workers/poll',
  auth: 'worker',
  openapi: () =>
    workerOperation('pollWorker', 'A self-hosted worker renews its leases and waits for work', WorkerPollRequestSchema, WorkerPollResponseSchema, {
      '409': problem('The worker is not connected: connect first'),
    }),
  async handle({ req, app, worker }) {
    const body = await readWorkerBody(req, SMALL_MAX_BYTES, WorkerPollRequestSchema, 'poll');
    const gone = new AbortController();
    const abort = () => gone.abort();
    // The response's close, not the request's: a request whose body was read reports its end early.
    req.socket.once('close', abort);
    let result;
    try {
      result = await app.workers.poll(worker!, body, gone.signal);
    } finally {
      req.socket.off('close', abort);
    }
    const { answer, given } = result;
    return stream((_req, res) => {
      const text = JSON.stringify(answer);
      res.once('close', () => {
        if (!res.writableFinished && given.length) void app.workers.giveBack(given);
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
      res.end(text);
    });
  },
};
