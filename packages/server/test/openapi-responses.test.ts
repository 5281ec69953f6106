import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiChecker } from '../../../test/support/openapi-checker.js';
import { eventually } from './support/eventually.js';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const skills = tempTree({ 'team/review/SKILL.md': '---\nname: review\ndescription: Review a change\n---\nRead the diff.\n' });

const WORKER_TOKEN = 'documented-worker-token-0123456789';
process.env.AGENT_RUNS_TEST_DOC_WORKER_TOKEN = WORKER_TOKEN;

let t: TestServer;
let checker: OpenApiChecker;
let receiver: Server;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t = await startTestServer({
    allowPrivateWebhooks: true,
    configFile: writeServerConfig({
      skill_directories: [join(skills, 'team')],
      environments: { web: { name: 'Web app' } },
      workers: { pool: { token: { from_env: 'AGENT_RUNS_TEST_DOC_WORKER_TOKEN' }, worker_hosts: ['docs'] } },
    }),
  });
  checker = await OpenApiChecker.load(t.server.baseURL);
});
afterAll(async () => {
  await t?.close();
  receiver?.close();
});

/** A request through the checker, with the server's key unless `key` is null. */
async function call(method: string, path: string, body?: unknown, init: { key?: string | null; headers?: Record<string, string>; redirect?: 'manual' } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? t.server.apiKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await checker.fetch(`${t.server.baseURL}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(init.redirect ? { redirect: init.redirect } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

const settled = (runId: string) =>
  eventually(
    async () => (await call('GET', `/agent/runs/${runId}`)).body,
    (run) => ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(run.state),
  );

describe('every answer of the API, against the OpenAPI document the server serves', () => {
  it('documents each status, content type and body the server sends, for every operation', async () => {
    // Runs: create (both paths), read, list, follow, cancel.
    const created = await call('POST', '/agent/runs', {
      prompt: 'Make a plan [simulate artifact plan pr file screenshot reference]',
      title: 'Documented',
      config: { environment_id: 'web', skills: ['team:review'] },
      metadata: { team: 'core' },
      attachments: [{ file_name: 'notes.md', mime_type: 'text/markdown', data: Buffer.from('# Notes\n').toString('base64') }],
    });
    expect(created.status).toBe(200);
    const runId: string = created.body.run_id;
    expect((await call('POST', '/agent/run', { prompt: 'Through the older path' })).status).toBe(200);
    const run = await settled(runId);
    expect(run.state).toBe('SUCCEEDED');
    expect((await call('GET', '/agent/runs?limit=1&sort_by=created_at&metadata[team]=core')).status).toBe(200);
    expect((await call('GET', `/agent/runs/${runId}/output`)).status).toBe(200);
    expect((await call('GET', `/agent/runs/${runId}/events`)).status).toBe(200);
    expect((await call('GET', `/agent/runs/${runId}/conversation`)).status).toBe(200);
    expect((await call('GET', `/agent/runs/${runId}/transcript`, undefined, { redirect: 'manual' })).status).toBe(302);
    expect((await call('GET', `/agent/runs/${runId}/handoff/attachments`)).status).toBe(200);
    const fetchable = run.artifacts.filter((artifact: { data: { artifact_uid?: string } }) => artifact.data.artifact_uid);
    expect(fetchable.length).toBeGreaterThanOrEqual(3);
    for (const artifact of fetchable) expect((await call('GET', `/agent/artifacts/${artifact.data.artifact_uid}`)).status).toBe(200);
    expect((await call('POST', `/agent/runs/${runId}/followups`, { message: 'And the tests' })).status).toBe(200);
    await settled(runId);
    const hanging = (await call('POST', '/agent/runs', { prompt: 'Wait [simulate hang]' })).body.run_id;
    expect((await call('POST', `/agent/runs/${hanging}/cancel`)).status).toBe(200);

    // Conversations and sessions (the two redirects are served without a key).
    expect((await call('GET', `/agent/sessions/${run.session_id}/redirect`, undefined, { key: null })).status).toBe(200);
    expect((await call('GET', `/agent/conversations/${run.conversation_id}/redirect`, undefined, { key: null })).status).toBe(200);
    expect((await call('GET', `/agent/conversations/${run.conversation_id}`)).status).toBe(200);

    // Schedules.
    const schedule = await call('POST', '/agent/schedules', { name: 'nightly', cron_schedule: '0 3 * * *', prompt: 'Triage' });
    expect(schedule.status).toBe(201);
    const scheduleId: string = schedule.body.id;
    expect((await call('GET', '/agent/schedules')).status).toBe(200);
    expect((await call('GET', `/agent/schedules/${scheduleId}`)).status).toBe(200);
    expect((await call('PUT', `/agent/schedules/${scheduleId}`, { name: 'nightly', cron_schedule: '0 4 * * *', prompt: 'Triage', enabled: true })).status).toBe(200);
    expect((await call('POST', `/agent/schedules/${scheduleId}/pause`)).status).toBe(200);
    expect((await call('POST', `/agent/schedules/${scheduleId}/resume`)).status).toBe(200);
    expect((await call('DELETE', `/agent/schedules/${scheduleId}`)).status).toBe(200);

    // The catalog and named agents.
    expect((await call('GET', '/agent/environments')).status).toBe(200);
    expect((await call('GET', '/agent')).status).toBe(200);
    const agent = await call('POST', '/agent/identities', { name: 'reviewer' });
    expect(agent.status).toBe(201);
    expect((await call('GET', '/agent/identities')).status).toBe(200);
    expect((await call('GET', `/agent/identities/${agent.body.uid}`)).status).toBe(200);
    expect((await call('PUT', `/agent/identities/${agent.body.uid}`, { name: 'careful reviewer' })).status).toBe(200);
    expect((await call('DELETE', `/agent/identities/${agent.body.uid}`)).status).toBe(204);

    // Models, and webhooks with their delivery log.
    expect((await call('GET', '/agent/models')).status).toBe(200);
    const hook = await call('POST', '/agent/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, event_types: ['run.succeeded'] });
    expect(hook.status).toBe(201);
    const hookId: string = hook.body.id;
    expect((await call('GET', '/agent/webhooks')).status).toBe(200);
    expect((await call('GET', `/agent/webhooks/${hookId}`)).status).toBe(200);
    expect((await call('PUT', `/agent/webhooks/${hookId}`, { description: 'documented' })).status).toBe(200);
    expect((await call('POST', `/agent/webhooks/${hookId}/rotate-secret`, { overlap_seconds: 60 })).status).toBe(200);
    expect((await call('POST', `/agent/webhooks/${hookId}/test`)).status).toBeLessThan(300);
    const deliveries = await eventually(
      async () => (await call('GET', `/agent/webhooks/${hookId}/deliveries`)).body.deliveries,
      (list: { id: string; status: string }[]) => list.some((d) => d.status === 'delivered'),
    );
    expect((await call('POST', `/agent/webhooks/${hookId}/deliveries/${deliveries[0]!.id}/redeliver`)).status).toBeLessThan(300);
    expect((await call('DELETE', `/agent/webhooks/${hookId}`)).status).toBeLessThan(300);

    // A self-hosted worker: connect, poll (a run routed to it is waiting), report, give back, poll again, finish; the connected list.
    const routed = await call('POST', '/agent/run', { prompt: 'on a worker', config: { worker_host: 'docs' } });
    expect(routed.status).toBe(200);
    const worker = { key: WORKER_TOKEN };
    const connect = { worker_host: 'docs', instance_id: 'doc-1', version: 'test', capacity: 1, harnesses: [], environments: [] };
    expect((await call('POST', '/workers/connect', connect, worker)).status).toBe(200);
    expect((await call('POST', '/workers/connect', { ...connect, worker_host: 'other' }, worker)).status).toBe(403);
    expect((await call('POST', '/workers/connect', connect)).status).toBe(401);
    const polled = await call('POST', '/workers/poll', { instance_id: 'doc-1', free_slots: 1, draining: false, runs: [] }, worker);
    expect(polled.status).toBe(200);
    const { claim, run: given, input } = polled.body.assignments[0];
    const lease = { instance_id: 'doc-1', claim };
    expect((await call('POST', '/workers/poll', { instance_id: 'doc-2', free_slots: 0, draining: false, runs: [] }, worker)).status).toBe(409);
    expect((await call('POST', `/workers/runs/${given.id}/report`, { ...lease, output: [{ stream: 'stdout', text: 'hi\n' }] }, worker)).status).toBe(204);
    expect((await call('POST', `/workers/runs/${given.id}/report`, { ...lease, nonsense: true }, worker)).status).toBe(400);
    expect((await call('GET', '/agent/connected-self-hosted-workers')).status).toBe(200);
    expect((await call('GET', '/agent/quota')).status).toBe(200);
    const back = { ...lease, execution: input.number };
    expect((await call('POST', `/workers/runs/${given.id}/give-back`, { ...back, nonsense: true }, worker)).status).toBe(400);
    expect((await call('POST', `/workers/runs/${given.id}/give-back`, { ...back, reason: 'its start was undone' }, worker)).status).toBe(204);
    expect((await call('POST', `/workers/runs/${given.id}/give-back`, back, worker)).status).toBe(409);
    const again = (await call('POST', '/workers/poll', { instance_id: 'doc-1', free_slots: 1, draining: false, runs: [] }, worker)).body.assignments[0];
    const held = { instance_id: 'doc-1', claim: again.claim, execution: again.input.number };
    expect((await call('POST', `/workers/runs/${given.id}/finish`, { ...held, state: 'SUCCEEDED' }, worker)).status).toBe(204);
    expect((await call('POST', `/workers/runs/${given.id}/finish`, { ...held, state: 'SUCCEEDED' }, worker)).status).toBe(409);

    // The mailbox and the event feed: a send, an inbox, a read, a delivered mark, 422 for an ended run; a report and a poll.
    const listener = (await call('POST', '/agent/runs', { prompt: 'Listen [simulate hang]' })).body.run_id;
    const sent = await call('POST', '/agent/messages', { to: [listener], subject: 'hi', body: 'there', sender_run_id: runId });
    expect(sent.status).toBe(200);
    expect((await call('POST', '/agent/messages', { to: [runId], subject: 'hi', body: 'there', sender_run_id: listener })).status).toBe(422);
    expect((await call('GET', `/agent/messages/${listener}?unread=true&limit=10`)).status).toBe(200);
    expect((await call('POST', `/agent/messages/${sent.body.message_ids[0]}/read`)).status).toBe(200);
    expect((await call('POST', `/agent/messages/${sent.body.message_ids[0]}/delivered`)).status).toBe(204);
    expect((await call('POST', `/agent/events/${listener}`, { event_type: 'run_in_progress' })).status).toBe(200);
    expect((await call('GET', `/agent/events?run_ids=${listener}&since=0`)).status).toBe(200);
    expect((await call('POST', `/agent/runs/${listener}/cancel`)).status).toBe(200);

    // The errors a client meets: bad input, no key, nothing there, a reused idempotency key.
    expect((await call('POST', '/agent/runs', { prompt: 7 })).status).toBe(400);
    expect((await call('GET', '/agent/runs?limit=zero')).status).toBe(400);
    expect((await call('GET', '/agent/runs', undefined, { key: null })).status).toBe(401);
    expect((await call('GET', '/agent/runs/no-such-run')).status).toBe(404);
    expect((await call('GET', '/agent/schedules/no-such-schedule')).status).toBe(404);
    expect((await call('POST', '/agent/schedules', { name: 'bad', cron_schedule: 'every day', prompt: 'x' })).status).toBe(400);
    const once = { 'idempotency-key': 'documented-1' };
    expect((await call('POST', '/agent/runs', { prompt: 'once' }, { headers: once })).status).toBe(200);
    expect((await call('POST', '/agent/runs', { prompt: 'twice' }, { headers: once })).status).toBe(409);

    expect(checker.mismatches).toEqual([]);
    expect(checker.unexercised()).toEqual([]);
  });

  it('reports an answer the document does not describe', async () => {
    const strict = await OpenApiChecker.load(t.server.baseURL);
    await strict.fetch(`${t.server.baseURL}/agent/no-such-operation`, { headers: { authorization: `Bearer ${t.server.apiKey}` } });
    expect(strict.mismatches).toEqual([expect.objectContaining({ request: 'GET /agent/no-such-operation', problem: expect.stringMatching(/no documented operation/) })]);
  });

  it('reports a body its schema does not accept', async () => {
    // A server whose document says one thing and whose answer another.
    const document = {
      paths: { '/thing': { get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } } },
      components: { schemas: { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, note: { type: 'string', nullable: true } } } } },
    };
    const liar = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.url === '/api/openapi.json' ? document : { note: null }));
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(liar.address() as AddressInfo).port}/api`;
    try {
      const strict = await OpenApiChecker.load(base);
      await strict.fetch(`${base}/thing`);
      expect(strict.mismatches).toEqual([expect.objectContaining({ request: 'GET /thing', problem: expect.stringMatching(/must have required property 'id'/) })]);
    } finally {
      liar.close();
    }
  });
});
