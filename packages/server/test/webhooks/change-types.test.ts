import { expect, it } from 'vitest';
import { changeTypes } from '../../src/webhooks/webhook-events.js';

it("names what a run's change to a state may report", () => {
  expect(changeTypes('SUCCEEDED')).toEqual(['run.state_changed', 'run.succeeded', 'run.artifact_created', 'run.followup_received']);
  expect(changeTypes('CANCELLED')).toEqual(['run.state_changed', 'run.cancelled', 'run.artifact_created', 'run.followup_received']);
  expect(changeTypes('INPROGRESS')).toEqual(['run.state_changed', 'run.artifact_created', 'run.followup_received']);
  expect(changeTypes('QUEUED')).toEqual(['run.created', 'run.state_changed', 'run.artifact_created', 'run.followup_received']);
});
