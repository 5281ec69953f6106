import { empty } from '../../http/reply.js';
import { problem } from '../../openapi/openapi-parts.js';
import { WorkerGiveBackRequestSchema } from '../../workers/worker-protocol.js';
import type { AppRoute } from '../app-context.js';
import { readWorkerBody, SMALL_MAX_BYTES } from './worker-body.js';
import { workerOperation } from './worker-operation.js';

/** `POST /workers/runs/{runId}/give-back`: a run whose agent never started goes back in line, under the run's lease. */
export const giveBackWorkerRunRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/workers/runs/:runId/give-back',
  auth: 'worker',
  openapi: () =>
    workerOperation('giveBackWorkerRun', "A worker gives back a run whose agent never started: it is queued again", WorkerGiveBackRequestSchema, undefined, {
      '409': problem('The lease on this run was given up, or the execution is not the one running: nothing changed'),
    }),
  async handle({ req, params, app, worker }) {
    const body = await readWorkerBody(req, SMALL_MAX_BYTES, WorkerGiveBackRequestSchema, 'give-back');
    await app.workers.giveBackRun(worker!, params.runId!, body);
    return empty(204);
  },
};
