import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '@agent-runs/core';
import { signWebhook } from '@agent-runs/core/webhooks';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = JSON.stringify({ type: 'run.succeeded', timestamp: '2026-01-01T00:00:00Z', data: { run_id: 'r1' } });
const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';

describe('verifyWebhook', () => {
  it('accepts what the standardwebhooks library signs', () => {
    const now = new Date();
    const signature = new Webhook(secret).sign(id, now, body);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
    expect(verifyWebhook(body, headers, secret)).toEqual(JSON.parse(body));
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret)).toEqual(JSON.parse(body));
  });

  it('signs as the standardwebhooks library verifies, and as it signs', () => {
    const seconds = Math.floor(Date.now() / 1000);
    const signature = signWebhook(secret, id, seconds, body);
    expect(signature).toBe(new Webhook(secret).sign(id, new Date(seconds * 1000), body));
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('accepts either of several signatures (a secret rotation) and refuses a tampered body, a wrong secret and a stale timestamp', () => {
    const seconds = Math.floor(Date.now() / 1000);
    const other = 'whsec_' + Buffer.from('another secret of enough length').toString('base64');
    const both = `${signWebhook(other, id, seconds, body)} ${signWebhook(secret, id, seconds, body)}`;
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': both };
    expect(verifyWebhook(body, headers, secret)).toBeTruthy();
    expect(verifyWebhook(body, headers, other)).toBeTruthy();
    expect(() => verifyWebhook(body.replace('r1', 'r2'), headers, secret)).toThrow(WebhookVerificationError);
    const wrong = 'whsec_' + Buffer.from('not the right one at all').toString('base64');
    expect(() => verifyWebhook(body, headers, wrong)).toThrow(/No matching signature/);
    const old = { ...headers, 'webhook-timestamp': String(seconds - 600), 'webhook-signature': signWebhook(secret, id, seconds - 600, body) };
    expect(() => verifyWebhook(body, old, secret)).toThrow(/too old/);
    expect(() => new Webhook(secret).verify(body, old)).toThrow();
    expect(verifyWebhook(body, old, secret, { toleranceSeconds: 3600 })).toBeTruthy();
    expect(() => verifyWebhook(body, { 'webhook-id': id }, secret)).toThrow(/Missing/);
  });
});
