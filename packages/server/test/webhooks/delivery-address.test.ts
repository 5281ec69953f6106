import { afterEach, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/webhooks/address-safety.js';
import { sendWebhook } from '../../src/webhooks/webhook-sender.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';

let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
});

const options = { timeoutMs: 15_000, maxResponseBytes: 16 };

describe('a webhook attempt', () => {
  it('is refused when the name resolves to a loopback address at delivery (a rebinding), and nothing reaches the receiver', async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    // A name, as a URL checked at creation might carry: it is resolved again for the connection.
    const result = await sendWebhook(`https://localhost:${port}/hooks`, {}, '{}', { ...options, allowPrivate: false });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/private address/);
    const literal = await sendWebhook(`https://127.0.0.1:${port}/hooks`, {}, '{}', { ...options, allowPrivate: false });
    expect(literal.error).toMatch(/private address/);
    expect(receiver.received).toHaveLength(0);
  });

  it('does not follow a redirect, and reads only the start of a long answer', async () => {
    receiver = await startReceiver((_request, i) => (i === 0 ? { status: 302, headers: { location: 'http://example.com/' } } : { status: 200, body: 'x'.repeat(100_000) }));
    const moved = await sendWebhook(receiver.url, {}, '{"type":"t"}', { ...options, allowPrivate: true });
    expect(moved.status).toBe(302);
    expect(receiver.received).toHaveLength(1);
    const long = await sendWebhook(receiver.url, {}, '{"type":"t"}', { ...options, allowPrivate: true });
    expect(long.status).toBe(200);
    expect(long.body).toBe('x'.repeat(16));
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    receiver = await startReceiver(() => 'hang');
    const started = Date.now();
    const result = await sendWebhook(receiver.url, {}, '{"type":"t"}', { ...options, timeoutMs: 200, allowPrivate: true });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/No answer within/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('counts loopback, private, link-local, metadata and mapped addresses as private, and public ones not', () => {
    for (const address of ['127.0.0.1', '10.0.0.8', '172.20.1.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(isPrivateAddress(address), address).toBe(false);
  });
});
