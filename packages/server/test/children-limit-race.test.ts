import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../../../test/support/postgres.js';
import type { ServerOptions } from '../src/index.js';
import { writeServerConfig } from './support/server-config.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

// orchestration.max_children_per_run holds when creates of one parent's children race: the
// store counts and inserts in one step, so N creates at once make exactly the limit.
const KEY = { key: 'children-race-key-0123456789', principal: 'alice' };
const LIMIT = 2;
const RACERS = 8;
const servers: TestServer[] = [];
let database: TestDatabase | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await database?.drop();
});

async function start(storage: ServerOptions): Promise<TestServer> {
  const configFile = writeServerConfig({ orchestration: { max_children_per_run: LIMIT } });
  const t = await startTestServer({ ...storage, apiKeys: [KEY], configFile, concurrency: 1 });
  servers.push(t);
  return t;
}

const post = (t: TestServer, body: unknown, idempotencyKey?: string) =>
  t.raw('/api/v1/agent/runs', {
    method: 'POST',
    key: KEY.key,
    headers: { 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    body: JSON.stringify(body),
  });
const part = (parentId: string, i: number) => ({ prompt: `Part ${i} [simulate 10ms]`, parent_run_id: parentId });

describe.each([
  { name: 'SQLite', enabled: true, open: async () => [await start({ storage: 'memory' })] },
  {
    name: 'PostgreSQL, two servers',
    enabled: postgresAdminUrl !== undefined,
    open: async () => {
      database = await createTestDatabase();
      return [await start({ databaseUrl: database.url }), await start({ databaseUrl: database.url })];
    },
  },
])('$name', ({ enabled, open }) => {
  it.skipIf(!enabled)(`${RACERS} creates racing under one parent make exactly ${LIMIT} children`, async () => {
    const ts = await open();
    const parent = await post(ts[0]!, { prompt: 'Plan [simulate 30s]' });
    expect(parent.status, JSON.stringify(parent.body)).toBe(200);
    const parentId = parent.body.run_id as string;
    // Spread over the servers, all sent before any is answered.
    const answers = await Promise.all(Array.from({ length: RACERS }, (_, i) => post(ts[i % ts.length]!, part(parentId, i), `part-${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([...Array(LIMIT).fill(200), ...Array(RACERS - LIMIT).fill(422)]);
    for (const refused of answers.filter((a) => a.status === 422)) {
      expect(refused.body.issues).toEqual([{ path: 'parent_run_id', message: expect.stringContaining('orchestration.max_children_per_run') }]);
    }
    const accepted = answers.filter((a) => a.status === 200).map((a) => a.body.run_id as string);
    const listed = await ts[0]!.raw(`/api/v1/agent/runs?ancestor_run_id=${parentId}`, { key: KEY.key });
    const children = listed.body.runs.map((r: { run_id: string }) => r.run_id).filter((id: string) => id !== parentId);
    expect(children.sort()).toEqual([...accepted].sort());
    // A create sent again under its key answers its run, though the parent is full now.
    const first = answers.findIndex((a) => a.status === 200);
    const replayed = await post(ts[ts.length - 1]!, part(parentId, first), `part-${first}`);
    expect(replayed).toMatchObject({ status: 200, body: { run_id: answers[first]!.body.run_id } });
  });
});
