import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { startServer } from '../../src/index.js';
import { createTestDatabase, postgresAdminUrl } from '../../../../test/support/postgres.js';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { startReceiver, type ReceivedWebhook, type WebhookReceiver } from './webhook-receiver.js';

const ALICE = { key: 'alice-declared-key-0123456789', principal: 'alice' };
const BOB = { key: 'bob-declared-key-0123456789', principal: 'bob' };
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

let dir: string;
let t: TestServer | undefined;
const receivers: WebhookReceiver[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-runs-declared-webhooks-'));
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function receiver(): Promise<WebhookReceiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** Writes the configuration file and the secret files it names; returns its path. */
function configFile(name: string, yaml: string, secrets: Record<string, string> = {}): string {
  for (const [file, value] of Object.entries(secrets)) writeFileSync(join(dir, file), `${value}\n`);
  const path = join(dir, name);
  writeFileSync(path, yaml);
  return path;
}

const start = (config: string, dataDir: string) =>
  startTestServer({ storage: 'file', dataDir, configFile: config, apiKeys: [ALICE, BOB], allowPrivateWebhooks: true, webhookPollMs: 20 });

const createRun = async (key: string) => (await t!.raw('/api/v1/agent/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"hello"}', key })).body.run_id as string;
const list = async (key: string) => (await t!.raw('/api/v1/agent/webhooks', { key })).body.webhooks as Record<string, any>[];
const verified = (secret: string, d: ReceivedWebhook) => new Webhook(secret).verify(d.body, d.headers as Record<string, string>);

describe('webhooks declared in the configuration file', () => {
  it('delivers to its owner\'s runs or to every run, signed with the secret it names, and shows it read-only through the API', async () => {
    const mine = await receiver();
    const everyone = await receiver();
    const [secretA, secretB] = [newSecret(), newSecret()];
    const config = configFile(
      'one.yaml',
      `secrets:
  ALERTS_SECRET: { from_file: alerts.secret }
webhooks:
  alerts:
    url: ${mine.url}
    event_types: [run.succeeded]
    owner: alice
    secret: ALERTS_SECRET
  audit:
    url: ${everyone.url}?token=audit-query-token-42
    event_types: [run.created]
    description: every run, for the audit log
    secret: { from_file: audit.secret }
`,
      { 'alerts.secret': secretA, 'audit.secret': secretB },
    );
    t = await start(config, join(dir, 'data-one'));
    const aliceRun = await createRun(ALICE.key);
    const bobRun = await createRun(BOB.key);
    await eventually(() => everyone.accepted.length, (n) => n >= 2);
    await eventually(() => mine.accepted.length, (n) => n >= 1);
    expect(everyone.accepted.map((d) => d.event.data.run_id).sort()).toEqual([aliceRun, bobRun].sort());
    for (const d of everyone.accepted) expect(verified(secretB, d)).toEqual(d.event);
    // Bob's run ends too, but only Alice's reaches her webhook.
    await eventually(async () => (await t!.raw(`/api/v1/agent/runs/${bobRun}`, { key: BOB.key })).body.state, (s) => s === 'SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mine.accepted.map((d) => [d.event.type, d.event.data.run_id])).toEqual([['run.succeeded', aliceRun]]);
    expect(verified(secretA, mine.accepted[0]!)).toEqual(mine.accepted[0]!.event);

    const aliceSees = await list(ALICE.key);
    expect(aliceSees.map((w) => [w.id, w.owner ?? null, w.operator_managed]).sort()).toEqual([
      ['wh_config_alerts', 'alice', true],
      ['wh_config_audit', null, true],
    ]);
    expect(aliceSees.some((w) => 'secret' in w)).toBe(false);
    expect((await list(BOB.key)).map((w) => w.id)).toEqual(['wh_config_audit']);
    // One for every run is every key's to see, but its address (a token in its query) only the operator's: its origin is shown.
    const origin = new URL(everyone.url).origin;
    expect(aliceSees.map((w) => [w.id, w.url]).sort()).toEqual([
      ['wh_config_alerts', mine.url],
      ['wh_config_audit', origin],
    ]);
    expect((await list(BOB.key)).map((w) => w.url)).toEqual([origin]);
    expect((await t!.raw('/api/v1/agent/webhooks/wh_config_audit', { key: BOB.key })).body.url).toBe(origin);

    const call = (method: string, path: string, body?: object) =>
      t!.raw(`/api/v1/agent/webhooks/${path}`, { method, key: ALICE.key, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
    for (const [method, path, body] of [
      ['DELETE', 'wh_config_alerts'],
      ['PUT', 'wh_config_alerts', { enabled: false }],
      ['POST', 'wh_config_alerts/rotate-secret', {}],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.detail).toContain('declared as webhooks.alerts in the server\'s configuration file');
    }
    expect((await call('GET', 'wh_config_alerts/deliveries')).body.deliveries).toHaveLength(1);
    // A webhook of every run carries other principals' runs: its log is not one key's to read.
    const audit = await call('GET', 'wh_config_audit/deliveries');
    expect(audit.status).toBe(404);
    expect(audit.body.detail).toContain('--shared-runs');
  });

  it('keeps one subscription per entry across restarts, applies a changed file, and removes an entry taken out', async () => {
    const first = await receiver();
    const second = await receiver();
    const [oldSecret, newer] = [newSecret(), newSecret()];
    const data = join(dir, 'data-two');
    const yaml = (url: string, extra = '') => `webhooks:
  deploys:
    url: ${url}
    event_types: [run.created]
    secret: { from_file: deploys.secret }
${extra}`;
    const withExtra = `  extra:
    url: ${first.url}
    secret: { from_file: deploys.secret }
`;
    t = await start(configFile('two.yaml', yaml(first.url, withExtra), { 'deploys.secret': oldSecret }), data);
    const before = await list(ALICE.key);
    expect(before.map((w) => w.id).sort()).toEqual(['wh_config_deploys', 'wh_config_extra']);
    await t.close();

    t = await start(join(dir, 'two.yaml'), data);
    const again = await list(ALICE.key);
    // The same subscriptions, untouched: a start with the same file writes nothing.
    expect(again).toEqual(before);
    await t.close();

    // A new url and secret for one entry, the other taken out.
    t = await start(configFile('two.yaml', yaml(second.url), { 'deploys.secret': newer }), data);
    const after = await list(ALICE.key);
    // Declared for every run: its origin is what a key is shown.
    expect(after.map((w) => [w.id, w.url])).toEqual([['wh_config_deploys', new URL(second.url).origin]]);
    expect(after[0]!.created_at).toBe(before.find((w) => w.id === 'wh_config_deploys')!.created_at);
    expect(after[0]!.updated_at > after[0]!.created_at).toBe(true);
    const runId = await createRun(ALICE.key);
    await eventually(() => second.accepted.length, (n) => n >= 1);
    const delivery = second.accepted[0]!;
    expect(delivery.event.data.run_id).toBe(runId);
    // The new secret signs, and the old one beside it for a day, as after a rotation.
    expect(verified(newer, delivery)).toEqual(delivery.event);
    expect(verified(oldSecret, delivery)).toEqual(delivery.event);
    expect(first.received).toHaveLength(0);
  });

  it('refuses a secret written in the file, one that is no Standard Webhooks secret, and an owner no key has', async () => {
    const url = 'http://127.0.0.1:9/hooks';
    const written = `${newSecret().replace(/[+/=]/g, 'A')}+`;
    const inline = configFile('inline.yaml', `webhooks:\n  x:\n    url: ${url}\n    secret: ${written}\n`);
    expect(() => loadConfigFile(inline)).toThrow(
      /inline\.yaml, line 4: webhooks\.x\.secret: must name a secret declared under secrets \(letters, digits and _\), or be \{ from_env: VARIABLE \} or \{ from_file: path \}; the secret itself is never written/,
    );
    expect(() => loadConfigFile(inline)).not.toThrow(written);
    const undeclared = configFile('undeclared.yaml', `webhooks:\n  x:\n    url: ${url}\n    secret: NOT_DECLARED\n`);
    expect(() => loadConfigFile(undeclared)).toThrow(/webhooks\.x\.secret: "NOT_DECLARED" is not declared under secrets/);
    const weak = configFile('weak.yaml', `webhooks:\n  x:\n    url: ${url}\n    secret: { from_file: weak.secret }\n`, { 'weak.secret': 'password123' });
    let message = '';
    try {
      loadConfigFile(weak);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('webhooks.x.secret: the secret is not a Standard Webhooks secret');
    expect(message).not.toContain('password123');

    const stranger = configFile('stranger.yaml', `webhooks:\n  x:\n    url: ${url}\n    owner: mallory\n    secret: { from_file: good.secret }\n`, { 'good.secret': newSecret() });
    await expect(start(stranger, join(dir, 'data-three'))).rejects.toThrow(/webhooks\.x\.owner: "mallory" is not a principal of this server's API keys \(principals: alice, bob\)/);
    const plain = configFile('plain.yaml', `webhooks:\n  x:\n    url: ${url}\n    secret: { from_file: good.secret }\n`);
    await expect(startTestServer({ storage: 'file', dataDir: join(dir, 'data-four'), configFile: plain, apiKeys: [ALICE] })).rejects.toThrow(
      /webhooks\.x\.url: must be an https URL/,
    );
  });

  it.runIf(postgresAdminUrl)('makes one subscription per entry when two servers of one PostgreSQL start together, and each event goes out once', async () => {
    const r = await receiver();
    const secret = newSecret();
    const config = configFile('shared.yaml', `webhooks:\n  shared:\n    url: ${r.url}\n    event_types: [run.created]\n    secret: { from_file: shared.secret }\n`, { 'shared.secret': secret });
    const db = await createTestDatabase();
    const options = { port: 0, quiet: true, databaseUrl: db.url, configFile: config, apiKeys: [ALICE], allowPrivateWebhooks: true, simulatedDurationMs: 20, webhookPollMs: 20 };
    const servers = await Promise.all([startServer(options), startServer(options)]);
    try {
      const listed = await fetch(`${servers[1]!.baseURL}/agent/webhooks`, { headers: { authorization: `Bearer ${ALICE.key}` } }).then((res) => res.json() as Promise<{ webhooks: { id: string }[] }>);
      expect(listed.webhooks.map((w) => w.id)).toEqual(['wh_config_shared']);
      const created = await fetch(`${servers[0]!.baseURL}/agent/runs`, { method: 'POST', headers: { authorization: `Bearer ${ALICE.key}`, 'content-type': 'application/json' }, body: '{"prompt":"once"}' });
      const { run_id: runId } = (await created.json()) as { run_id: string };
      await eventually(() => r.accepted.length, (n) => n >= 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(r.received.map((d) => d.event.data.run_id)).toEqual([runId]);
      expect(verified(secret, r.received[0]!)).toEqual(r.received[0]!.event);
    } finally {
      for (const server of servers) await server.close();
      await db.drop();
    }
  });
});
