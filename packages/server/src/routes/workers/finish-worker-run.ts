import { empty } from '../../http/reply.js';
import { problem } from '../../openapi/openapi-parts.js';
import { WorkerFinishRequestSchema } from '../../workers/worker-protocol.js';
import type { AppRoute } from '../app-context.js';
import { FINISH_MAX_BYTES, readWorkerBody } from './worker-body.js';
import { workerOperation } from './worker-operation.js';

/** `POST /workers/runs/{runId}/finish`: how a run's execution ended, with its artifacts, under the run's lease. */
export const finishWorkerRunRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/workers/runs/:runId/finish',
  auth: 'worker',
  openapi: () =>
    workerOperation('finishWorkerRun', 'A worker says how a run\'s execution ended', WorkerFinishRequestSchema, undefined, {
      '409': problem('The lease on this run was given up: its outcome is not taken'),
      '413': problem('The finish is larger than a run\'s artifacts may be'),
    }),
  async handle({ req, params, app, worker }) {
    const body = await readWorkerBody(req, FINISH_MAX_BYTES, WorkerFinishRequestSchema, 'finish');
    await app.workers.finish(worker!, params.runId!, body);
    return empty(204);
  },
};
