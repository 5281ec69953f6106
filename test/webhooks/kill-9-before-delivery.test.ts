import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startReceiver, type WebhookReceiver } from '../../packages/server/test/webhooks/webhook-receiver.js';
import { startServerChild, type ServerChild } from './server-child.js';

const KEY = { key: 'kill-test-key-0123456789', principal: 'ops' };

async function post(baseURL: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${baseURL}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

describe('a server killed between the commit and the delivery', () => {
  let receiver: WebhookReceiver | undefined;
  let server: ServerChild | undefined;
  afterEach(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await receiver?.close();
  });

  it('delivers the event after its restart, with the same webhook-id', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-webhooks-'));
    const options = { dataDir, apiKeys: [KEY], allowPrivateWebhooks: true, simulatedDurationMs: 60_000 };
    // The first attempt reaches the receiver, which never answers: the server dies with it in flight.
    let answering = false;
    receiver = await startReceiver(() => (answering ? { status: 200 } : 'hang'));
    server = await startServerChild(options);
    const { secret } = await post(server.baseURL, '/agent/webhooks', { url: receiver.url, event_types: ['run.created'] });
    const { run_id: runId } = await post(server.baseURL, '/agent/runs', { prompt: 'survive' });
    await expect.poll(() => receiver!.received.length, { timeout: 10_000 }).toBe(1);
    server.child.kill('SIGKILL');
    await server.exited;

    answering = true;
    server = await startServerChild(options);
    await expect.poll(() => receiver!.accepted.length, { timeout: 10_000 }).toBe(1);
    const [first] = receiver.received;
    const [delivered] = receiver.accepted;
    expect(delivered!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(delivered!.event).toMatchObject({ type: 'run.created', data: { run_id: runId } });
    expect(new Webhook(secret).verify(delivered!.body, delivered!.headers as Record<string, string>)).toEqual(delivered!.event);
  });
});
