import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';
import { nodeAgentCommand } from './support/node-agent.js';
import { writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

// Agents that start agents: a real command agent uses AGENT_RUNS_API_URL and its
// AGENT_RUNS_RUN_TOKEN with Node's fetch, and writes what each call answered to probes.json
// in its working directory (and its token to token.txt, for the checks after it ended).
const AGENT = `
const fs = require('node:fs');
const url = process.env.AGENT_RUNS_API_URL;
const token = process.env.AGENT_RUNS_RUN_TOKEN;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function call(method, path, body) {
  const res = await fetch(url + '/api/v1' + path, {
    method,
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = text;
  try { json = JSON.parse(text); } catch {}
  return { status: res.status, body: json };
}
async function main(prompt) {
  const [word, ...args] = prompt.trim().split(/\\s+/);
  const self = process.env.AGENT_RUNS_RUN_ID;
  fs.writeFileSync('token.txt', token || '');
  const probes = { url };
  const save = () => fs.writeFileSync('probes.json.tmp', JSON.stringify(probes)) || fs.renameSync('probes.json.tmp', 'probes.json');
  if (word === 'parent') {
    const [stranger, bobs] = args;
    probes.kids = [await call('POST', '/agent/runs', { prompt: 'child' }), await call('POST', '/agent/runs', { prompt: 'child', parent_run_id: self })];
    const kids = probes.kids.map((k) => k.body.run_id);
    probes.third = await call('POST', '/agent/runs', { prompt: 'child' });
    probes.getKid = await call('GET', '/agent/runs/' + kids[0]);
    probes.getSelf = await call('GET', '/agent/runs/' + self);
    probes.message = await call('POST', '/agent/messages', { to: kids, subject: 'go', body: 'do your part' });
    probes.events = await call('GET', '/agent/events?run_ids=' + kids.join(','));
    probes.inbox = await call('GET', '/agent/messages/' + self);
    probes.otherParent = await call('POST', '/agent/runs', { prompt: 'x', parent_run_id: stranger });
    probes.otherConversation = await call('POST', '/agent/runs', { prompt: 'x', conversation_id: stranger });
    probes.stranger = await call('GET', '/agent/runs/' + stranger);
    probes.messageStranger = await call('POST', '/agent/messages', { to: [stranger], subject: 's', body: 'b' });
    probes.eventsStranger = await call('GET', '/agent/events?run_ids=' + stranger);
    probes.inboxOfKid = await call('GET', '/agent/messages/' + kids[0]);
    probes.cancelStranger = await call('POST', '/agent/runs/' + stranger + '/cancel');
    probes.bobs = await call('GET', '/agent/runs/' + bobs);
    probes.list = await call('GET', '/agent/runs');
    probes.schedules = await call('GET', '/agent/schedules');
    probes.followup = await call('POST', '/agent/runs/' + kids[0] + '/followups', { message: 'more' });
    // Follows a child's event stream to its end, as a client's wait does.
    const stream = await fetch(url + '/api/v1/agent/runs/' + kids[0] + '/events', { headers: { authorization: 'Bearer ' + token } });
    const events = await stream.text();
    probes.stream = { status: stream.status, ended: /"state":"SUCCEEDED"/.test(events) };
  } else if (word === 'child') {
    probes.grandchild = await call('POST', '/agent/runs', { prompt: 'never' });
    probes.parent = await call('GET', '/agent/runs/' + process.env.AGENT_RUNS_RUN_ID).then(async (me) => call('GET', '/agent/runs/' + me.body.parent_run_id));
    // Waits for the parent's message in its inbox file, then ends.
    for (let i = 0; i < 400; i++) {
      const inbox = fs.existsSync(process.env.AGENT_RUNS_INBOX_FILE) ? fs.readFileSync(process.env.AGENT_RUNS_INBOX_FILE, 'utf8') : '';
      if (inbox.includes('do your part')) { probes.gotMessage = true; break; }
      await sleep(50);
    }
  } else if (word === 'fanout') {
    probes.kids = [];
    for (let i = 0; i < Number(args[0]); i++) probes.kids.push(await call('POST', '/agent/runs', { prompt: 'hang' }));
    save();
    await sleep(600000);
  } else if (word === 'hang') {
    await sleep(600000);
  } else if (word === 'leak') {
    console.log('my token is ' + token);
    console.error('in base64 ' + Buffer.from(token).toString('base64'));
    console.error('last words ' + token);
    process.exit(1);
  }
  save();
}
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => main(input).catch((e) => { console.error(String(e)); process.exit(3); }));
`;

const ALICE = { key: 'alice-key-0123456789abcdef', principal: 'alice' };
const BOB = { key: 'bob-key-0123456789abcdef', principal: 'bob' };
const workRoot = mkdtempSync(join(tmpdir(), 'agent-runs-run-tokens-'));
const logs: string[] = [];
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    apiKeys: [ALICE, BOB],
    executor: 'command',
    command: nodeAgentCommand(AGENT),
    workDir: workRoot,
    commandTimeoutMs: 60_000,
    concurrency: 8,
    quiet: false,
    log: (line) => logs.push(line),
    configFile: writeServerConfig({ orchestration: { max_depth: 1, max_children_per_run: 2 } }),
  });
});
afterAll(async () => {
  await t?.close();
  rmSync(workRoot, { recursive: true, force: true });
});

const post = (path: string, body?: unknown, key = ALICE.key) =>
  t.raw(`/api/v1${path}`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const get = (path: string, key = ALICE.key) => t.raw(`/api/v1${path}`, { key });
async function create(prompt: string, key = ALICE.key): Promise<string> {
  const answer = await post('/agent/runs', { prompt }, key);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.run_id;
}
const stateOf = async (id: string) => (await get(`/agent/runs/${id}`)).body.state as string;
const ended = (id: string) => eventually(() => stateOf(id), (s) => ['SUCCEEDED', 'FAILED', 'CANCELLED', 'ERROR'].includes(s), 30_000);
const probesOf = (id: string) => JSON.parse(readFileSync(join(workRoot, id, 'probes.json'), 'utf8'));

describe('a run token', () => {
  it('lets an agent create children of its own run, read and message its family, and nothing else', async () => {
    const stranger = await create('hang');
    const bobs = await create('hang', BOB.key);
    const parent = await create(`parent ${stranger} ${bobs}`);
    expect(await ended(parent)).toBe('SUCCEEDED');
    const p = probesOf(parent);
    expect(p.url).toBe(t.server.url);

    // Two children, with parent_run_id forced to (or matching) the token's run.
    expect(p.kids.map((k: { status: number }) => k.status)).toEqual([200, 200]);
    const kids: string[] = p.kids.map((k: { body: { run_id: string } }) => k.body.run_id);
    for (const kid of kids) expect((await get(`/agent/runs/${kid}`)).body.parent_run_id).toBe(parent);
    // A third is over orchestration.max_children_per_run.
    expect(p.third.status).toBe(422);
    expect(p.third.body.issues).toEqual([{ path: 'parent_run_id', message: expect.stringContaining('orchestration.max_children_per_run') }]);

    expect(p.getKid).toMatchObject({ status: 200, body: { run_id: kids[0], parent_run_id: parent } });
    expect(p.getSelf.status).toBe(200);
    expect(p.message.status).toBe(200);
    expect(p.events.status).toBe(200);
    expect(p.inbox.status).toBe(200);

    // The same principal's run outside the family: 403, naming the scope.
    for (const name of ['otherParent', 'otherConversation', 'stranger', 'messageStranger', 'eventsStranger', 'inboxOfKid', 'cancelStranger']) {
      expect(p[name].status, name).toBe(403);
      expect(p[name].body.detail, name).toMatch(/run token/);
    }
    // Another principal's run is as unknown as to that principal's other keys.
    expect(p.bobs.status).toBe(404);
    // Endpoints outside the scope: 403, whatever they name.
    for (const name of ['list', 'schedules', 'followup']) {
      expect(p[name].status, name).toBe(403);
      expect(p[name].body.detail, name).toMatch(/run token opens only/);
    }
    expect(await stateOf(stranger)).toBe('INPROGRESS');
    expect(p.stream).toEqual({ status: 200, ended: true });

    // Each child got the message in its inbox file, read its parent, and could not go deeper.
    for (const kid of kids) {
      expect(await ended(kid)).toBe('SUCCEEDED');
      const c = probesOf(kid);
      expect(c.gotMessage).toBe(true);
      expect(c.parent).toMatchObject({ status: 200, body: { run_id: parent } });
      expect(c.grandchild.status).toBe(422);
      expect(c.grandchild.body.issues[0].message).toContain('orchestration.max_depth');
    }

    // Once its run has ended the token opens nothing: 401.
    const token = readFileSync(join(workRoot, parent, 'token.txt'), 'utf8');
    expect(token).toMatch(/^art_[\w-]{43}$/);
    const after = await get(`/agent/runs/${parent}`, token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post('/agent/runs', { prompt: 'late' }, token)).status).toBe(401);
    for (const id of [stranger, bobs]) await post(`/agent/runs/${id}/cancel`, undefined, id === bobs ? BOB.key : ALICE.key);
  });

  it('never shows in the run’s output, status message or the server’s log', async () => {
    const id = await create('leak');
    expect(await ended(id)).toBe('FAILED');
    const token = readFileSync(join(workRoot, id, 'token.txt'), 'utf8');
    expect(token).toMatch(/^art_/);
    const output = await get(`/agent/runs/${id}/output`);
    const run = await get(`/agent/runs/${id}`);
    const texts = [JSON.stringify(output.body), JSON.stringify(run.body), logs.join('\n')];
    expect(JSON.stringify(output.body)).toContain('my token is ***');
    for (const text of texts) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(4));
      expect(text).not.toContain(Buffer.from(token).toString('base64').slice(0, 40));
    }
  });

  it('is refused by an API-key-only endpoint before anything else is looked at, and an unknown one is a 401', async () => {
    const forged = await get('/agent/runs', 'art_not-a-token-this-server-issued');
    expect(forged.status).toBe(401);
    expect(forged.body.detail).toMatch(/run token is not valid/);
  });
});

describe('cancelling a parent', () => {
  it('cancels its running children too', async () => {
    const fan = await startTestServer({ executor: 'command', command: nodeAgentCommand(AGENT), workDir: workRoot, commandTimeoutMs: 60_000, concurrency: 6 });
    try {
      const raw = (path: string, method = 'GET') => fan.raw(`/api/v1${path}`, { method, headers: { 'content-type': 'application/json' } });
      const answer = await fan.raw('/api/v1/agent/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'fanout 3' }) });
      const parent = answer.body.run_id as string;
      const file = join(workRoot, parent, 'probes.json');
      await eventually(() => existsSync(file), Boolean, 30_000);
      const kids: string[] = JSON.parse(readFileSync(file, 'utf8')).kids.map((k: { status: number; body: { run_id: string } }) => {
        expect(k.status).toBe(200);
        return k.body.run_id;
      });
      expect(kids).toHaveLength(3);
      for (const kid of kids) await eventually(async () => (await raw(`/agent/runs/${kid}`)).body.state, (s) => s === 'INPROGRESS', 30_000);

      expect((await raw(`/agent/runs/${parent}/cancel`, 'POST')).status).toBe(200);
      for (const id of [parent, ...kids]) {
        const run = await eventually(async () => (await raw(`/agent/runs/${id}`)).body, (r) => r.state !== 'INPROGRESS', 10_000);
        expect(run.state, id).toBe('CANCELLED');
      }
      expect((await raw(`/agent/runs/${kids[0]}`)).body.status_message.message).toBe(`Cancelled with its ancestor run ${parent}.`);
    } finally {
      await fan.close();
    }
  });
});

describe('an agent in the sandbox with no network', () => {
  it('reaches its server through the filtering proxy, and nothing else of loopback', async () => {
    // curl follows the proxy variables the agent gets; with them ignored, loopback is out of reach.
    const script = [
      'auth="Authorization: Bearer $AGENT_RUNS_RUN_TOKEN"',
      'curl -s -o /dev/null -w "%{http_code}" -H "$auth" "$AGENT_RUNS_API_URL/api/v1/agent/runs/$AGENT_RUNS_RUN_ID" > via-proxy.txt',
      'curl -s -o /dev/null -w "%{http_code}" --noproxy "*" --max-time 5 -H "$auth" "$AGENT_RUNS_API_URL/api/v1/agent/runs/$AGENT_RUNS_RUN_ID" > direct.txt',
      'exit 0',
    ].join('\n');
    const boxed = await startTestServer({ executor: 'command', command: script, workDir: workRoot, sandbox: 'on', network: 'none', commandTimeoutMs: 30_000 });
    try {
      const { run_id } = await boxed.client.runs.create({ prompt: 'look at yourself' });
      const run = await boxed.client.runs.wait(run_id, { pollInterval: 50 });
      expect(run.state).toBe('SUCCEEDED');
      expect(readFileSync(join(workRoot, run_id, 'via-proxy.txt'), 'utf8')).toBe('200');
      expect(readFileSync(join(workRoot, run_id, 'direct.txt'), 'utf8')).toBe('000');
    } finally {
      await boxed.close();
    }
  });
});

describe('children an agent starts', () => {
  it('count against its principal’s quotas, as any run of that principal does', async () => {
    const q = await startTestServer({
      executor: 'command',
      command: nodeAgentCommand(AGENT),
      workDir: workRoot,
      commandTimeoutMs: 60_000,
      concurrency: 4,
      configFile: writeServerConfig({ quotas: { default: { creates_per_minute: 2 } } }),
    });
    try {
      const answer = await q.raw('/api/v1/agent/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'fanout 2' }) });
      const parent = answer.body.run_id as string;
      const file = join(workRoot, parent, 'probes.json');
      await eventually(() => existsSync(file), Boolean, 30_000);
      const [first, second] = JSON.parse(readFileSync(file, 'utf8')).kids as { status: number; body: { detail: string } }[];
      // The parent was the first create of the minute, its first child the second.
      expect(first!.status).toBe(200);
      expect(second!.status).toBe(429);
      expect(second!.body.detail).toMatch(/creates_per_minute|per minute/);
      await q.raw(`/api/v1/agent/runs/${parent}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    } finally {
      await q.close();
    }
  });
});
