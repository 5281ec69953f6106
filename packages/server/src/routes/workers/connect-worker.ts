import { ApiProblem } from '../../http/api-problem.js';
import { problem } from '../../openapi/openapi-parts.js';
import { WorkerConnectRequestSchema, WorkerConnectResponseSchema } from '../../workers/worker-protocol.js';
import type { AppRoute } from '../app-context.js';
import { readWorkerBody, SMALL_MAX_BYTES } from './worker-body.js';
import { workerOperation } from './worker-operation.js';

/** `POST /workers/connect`: a worker process announces itself, for a worker id its token may serve. */
export const connectWorkerRoute: AppRoute = {
  method: 'POST',
  path: '/api/v1/workers/connect',
  auth: 'worker',
  openapi: () =>
    workerOperation('connectWorker', 'A self-hosted worker connects', WorkerConnectRequestSchema, WorkerConnectResponseSchema, {
      '403': problem('The token may not serve that worker_host'),
    }),
  async handle({ req, app, worker }) {
    const body = await readWorkerBody(req, SMALL_MAX_BYTES, WorkerConnectRequestSchema, 'connect');
    if (!worker!.workerHosts.includes(body.worker_host)) {
      throw new ApiProblem(
        'not_authorized',
        `The worker token "${worker!.name}" may not serve worker_host "${body.worker_host}" (it may serve: ${worker!.workerHosts.join(', ')}).`,
        { status: 403, retryable: false, issues: [{ path: 'worker_host', message: `"${body.worker_host}" is not one of this token's worker_hosts.` }] },
      );
    }
    return app.workers.connect(worker!, body);
  },
};
