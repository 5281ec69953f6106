import { empty } from '../../http/reply.js';
import { problem } from '../../openapi/openapi-parts.js';
import { WorkerReportRequestSchema } from '../../workers/worker-protocol.js';
import type { AppRoute } from '../app-context.js';
import { readWorkerBody, REPORT_MAX_BYTES } from './worker-body.js';
import { workerOperation } from './worker-operation.js';

/** `POST /workers/runs/{runId}/report`: the agent's output and harness state, under the run's lease. */
export const reportWorkerRunRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/workers/runs/:runId/report',
  auth: 'worker',
  openapi: () =>
    workerOperation('reportWorkerRun', 'A worker reports what a run\'s agent printed', WorkerReportRequestSchema, undefined, {
      '409': problem('The lease on this run was given up: the worker stops its agent'),
      '413': problem('The report is too large'),
    }),
  async handle({ req, params, app, worker }) {
    const body = await readWorkerBody(req, REPORT_MAX_BYTES, WorkerReportRequestSchema, 'report');
    await app.workers.report(worker!, params.runId!, body);
    return empty(204);
  },
};
