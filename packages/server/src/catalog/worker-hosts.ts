import { HOSTED_WORKER_HOST } from '@agent-runs/core/contract';
import type { InvalidInputError } from '../domain/domain-errors.js';
import { invalidField } from '../domain/invalid-request-input.js';

/**
 * The 400 for a worker_host no worker token of the configuration names (a run sent there
 * could never start), naming `field` and the ids there are; undefined when it is fine
 * (known, `warp` or empty: the server's own executor).
 */
export function unknownWorkerHost(known: readonly string[], host: string | null | undefined, field: string): InvalidInputError | undefined {
  if (host === undefined || host === null || host === '' || host === HOSTED_WORKER_HOST || known.includes(host)) return undefined;
  const ids = known.length ? known.join(', ') : 'none: the configuration file has no workers: section';
  return invalidField(field, `"${host}" is no worker id of this server (known: ${ids}); or use "${HOSTED_WORKER_HOST}" or omit it for the server's own executor.`);
}
