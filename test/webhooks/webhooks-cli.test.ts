import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@agent-runs/server';
import { verifyWebhook } from '@agent-runs/core';
import { runCli, stderrIncludes } from '../../packages/cli/test/support/cli-process.js';
import { startReceiver, type WebhookReceiver } from '../../packages/server/test/webhooks/webhook-receiver.js';

const KEY = 'cli-webhook-key-0123456789';

describe('agent-runs webhooks', () => {
  let server: RunningServer | undefined;
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await server?.close();
    await receiver?.close();
  });

  const cli = (...args: string[]) => runCli(['--base-url', server!.baseURL, ...args], { env: { AGENT_RUNS_API_KEY: KEY } });
  const createRun = () =>
    fetch(`${server!.baseURL}/agent/runs`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"prompt":"hi"}' });

  it('creates a subscription, lists it, shows its deliveries, redelivers one and sends a test event', async () => {
    server = await startServer({ port: 0, quiet: true, storage: 'memory', apiKeys: [{ key: KEY, principal: 'me' }], allowPrivateWebhooks: true, simulatedDurationMs: 50 });
    receiver = await startReceiver();
    const created = await cli('webhooks', 'create', '--url', receiver.url, '--event', 'run.created', '--json');
    expect(created.code, created.stderr).toBe(0);
    const hook = JSON.parse(created.stdout);
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await cli('webhooks', 'list')).stdout).toContain(hook.id);

    await createRun();
    await expect.poll(() => receiver!.accepted.length, { timeout: 10_000 }).toBe(1);
    const deliveries = await cli('webhooks', 'deliveries', hook.id, '--json');
    const [delivery] = JSON.parse(deliveries.stdout).deliveries;
    expect(delivery).toMatchObject({ status: 'delivered', event_type: 'run.created' });
    expect((await cli('webhooks', 'deliveries', hook.id)).stdout).toMatch(/run\.created\s+delivered/);
    expect((await cli('webhooks', 'redeliver', hook.id, delivery.id)).code).toBe(0);
    expect((await cli('webhooks', 'test', hook.id)).code).toBe(0);
    await expect.poll(() => receiver!.accepted.map((d) => d.event.type), { timeout: 10_000 }).toEqual(['run.created', 'run.created', 'webhook.test']);
    expect(receiver.accepted[1]!.headers['webhook-id']).toBe(receiver.accepted[0]!.headers['webhook-id']);

    const bad = await cli('webhooks', 'create', '--url', receiver.url, '--event', 'run.exploded');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/run\.exploded/);
    const badState = await cli('webhooks', 'create', '--url', receiver.url, '--state', 'succeeded,DONE');
    expect(badState.code).toBe(2);
    expect(badState.stderr).toMatch(/--state DONE: not a run state; use one of QUEUED, .*SUCCEEDED/);
    const missing = await cli('webhooks', 'deliveries', 'wh_missing');
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('Check the webhook id and --base-url.');
    expect((await cli('webhooks', 'delete', hook.id)).code).toBe(0);
    expect((await cli('webhooks', 'list')).stdout).toMatch(/No webhooks/);
    // Nine commands, each a process of its own.
  }, 90_000);

  it('marks a webhook the configuration file declares, in the list and in its details', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-runs-cli-declared-'));
    writeFileSync(join(dir, 'hook.secret'), `whsec_${randomBytes(32).toString('base64')}\n`);
    const configFile = join(dir, 'server.yaml');
    writeFileSync(
      configFile,
      `secrets:\n  HOOK_SECRET: { from_file: ${join(dir, 'hook.secret')} }\nwebhooks:\n  alerts:\n    url: http://127.0.0.1:9/hooks\n    event_types: [run.failed]\n    owner: me\n    secret: HOOK_SECRET\n`,
    );
    server = await startServer({ port: 0, quiet: true, storage: 'memory', configFile, apiKeys: [{ key: KEY, principal: 'me' }], allowPrivateWebhooks: true });
    const listed = await cli('webhooks', 'list');
    expect(listed.stdout).toMatch(/wh_config_alerts .*\(configuration file\)/);
    const details = await cli('webhooks', 'get', 'wh_config_alerts');
    expect(details.stdout).toMatch(/managed by:\s+the server's configuration file/);
  }, 60_000);

  it('listen forwards each delivery to the app, which verifies it with the secret printed, and unsubscribes on Ctrl-C', async () => {
    server = await startServer({ port: 0, quiet: true, storage: 'memory', apiKeys: [{ key: KEY, principal: 'me' }], allowPrivateWebhooks: true, simulatedDurationMs: 50 });
    receiver = await startReceiver();
    let child: ChildProcess | undefined;
    let printed = '';
    const done = runCli(['--base-url', server.baseURL, 'webhooks', 'listen', '--forward-to', receiver.url, '--event', 'run.succeeded'], {
      env: { AGENT_RUNS_API_KEY: KEY },
      timeoutMs: 20_000,
      onSpawn: (c) => {
        child = c;
        c.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      },
    });
    await expect.poll(() => child !== undefined).toBe(true);
    await stderrIncludes(child!, 'Press Ctrl-C');
    const secret = /Signing secret for your app: (whsec_\S+)/.exec(printed)![1]!;
    await createRun();
    await expect.poll(() => receiver!.accepted.length, { timeout: 10_000 }).toBe(1);
    const forwarded = receiver.accepted[0]!;
    expect(verifyWebhook(forwarded.body, forwarded.headers as Record<string, string>, secret)).toMatchObject({ type: 'run.succeeded' });
    child!.kill('SIGINT');
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/run\.succeeded\s+msg_\S+\s+→ 200/);
    const left = await fetch(`${server.baseURL}/agent/webhooks`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) => r.json() as Promise<{ webhooks: unknown[] }>);
    expect(left.webhooks).toEqual([]);
  }, 40_000);
});
