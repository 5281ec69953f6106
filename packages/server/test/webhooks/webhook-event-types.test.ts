import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';

const KEY = { key: 'events-key-0123456789', principal: 'ana' };
let t: TestServer | undefined;
let r: WebhookReceiver | undefined;

afterEach(async () => {
  await t?.close();
  await r?.close();
});

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await t!.raw(`/api/v1${path}`, { method, key: KEY.key, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

describe('webhook event types', () => {
  it('reports an artifact made, a follow-up received, a cancel and a schedule firing', async () => {
    const clock = { at: new Date('2026-03-02T10:00:30Z'), now() { return new Date(this.at); } };
    t = await startTestServer({ apiKeys: [KEY], allowPrivateWebhooks: true, clock, schedulerIntervalMs: 20 });
    r = await startReceiver();
    await call('POST', '/agent/webhooks', { url: r.url, event_types: ['run.artifact_created', 'run.followup_received', 'run.cancelled', 'schedule.fired'] });
    const { run_id: runId } = await call('POST', '/agent/runs', { prompt: 'Ship it [simulate 20ms] [simulate artifact pr]' });
    const artifact = await eventually(() => r!.accepted.find((d) => d.event.type === 'run.artifact_created'), (d) => d !== undefined);
    expect(artifact!.event.data).toMatchObject({ run_id: runId, artifact: { artifact_type: 'PULL_REQUEST' } });

    await call('POST', `/agent/runs/${runId}/followups`, { message: 'and the docs [simulate hang]' });
    const followup = await eventually(() => r!.accepted.find((d) => d.event.type === 'run.followup_received'), (d) => d !== undefined);
    expect(followup!.event.data).toMatchObject({ run_id: runId, followup: { message: 'and the docs [simulate hang]' } });
    await eventually(async () => (await call('GET', `/agent/runs/${runId}`)).state, (s) => s === 'INPROGRESS' || s === 'QUEUED');
    await call('POST', `/agent/runs/${runId}/cancel`);
    const cancelled = await eventually(() => r!.accepted.find((d) => d.event.type === 'run.cancelled'), (d) => d !== undefined);
    expect(cancelled!.event.data).toMatchObject({ run_id: runId, state: 'CANCELLED' });

    const schedule = await call('POST', '/agent/schedules', { name: 'every minute', cron_schedule: '* * * * *', prompt: 'tick' });
    clock.at = new Date('2026-03-02T10:01:05Z');
    const fired = await eventually(() => r!.accepted.find((d) => d.event.type === 'schedule.fired'), (d) => d !== undefined);
    expect(fired!.event.data).toMatchObject({ schedule_id: schedule.id, schedule_name: 'every minute', run_id: expect.any(String) });
  });
});
