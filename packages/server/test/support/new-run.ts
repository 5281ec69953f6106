import type { NewRun } from '../../src/store/runs/run-record.js';

const AT = '2026-01-01T00:00:00.000Z';

/** A stored run's fields as a store test writes them: QUEUED, created and updated at 2026-01-01. */
export function newRun(id: string, extra: Partial<NewRun> = {}): NewRun {
  return {
    id,
    title: `title ${id}`,
    state: 'QUEUED',
    prompt: 'a prompt',
    createdAt: AT,
    updatedAt: AT,
    startedAt: null,
    statusMessage: null,
    source: 'API',
    creator: { uid: 'user-1' },
    sessionId: `session-${id}`,
    agentConfig: {},
    request: {},
    idempotencyKey: null,
    requestHash: null,
    ...extra,
  };
}
