import { expect, it } from 'vitest';
import { changeTypes } from '../../src/webhooks/webhook-events.js';

it("reads what a run's change may report from the run's own state, not a nested one or the prompt", () => {
  const run = (state: string) => JSON.stringify({ run_id: 'r', title: 'say "state":"FAILED"', state, status_message: { state: 'QUEUED' } });
  expect(changeTypes(run('SUCCEEDED'))).toEqual(['run.state_changed', 'run.succeeded', 'run.artifact_created', 'run.followup_received']);
  expect(changeTypes(run('INPROGRESS'))).toEqual(['run.state_changed', 'run.artifact_created', 'run.followup_received']);
  expect(changeTypes(run('QUEUED'))).toEqual(['run.created', 'run.state_changed', 'run.artifact_created', 'run.followup_received']);
  // Unreadable: every subscription is woken, as before this guess existed.
  expect(changeTypes('{}')).toBeUndefined();
});
