import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.js';
import { startTestServer } from './support/local-server.js';

/** `agent-runs tree`, against a real local server holding a run, its children and a grandchild. */
let local: Awaited<ReturnType<typeof startTestServer>>;
const cli = (args: string[]) => runCli([...local.target, ...args], { env: local.env });
const ids: Record<string, string> = {};

beforeAll(async () => {
  local = await startTestServer();
  const create = async (name: string, prompt: string, parent?: string) =>
    (ids[name] = (await local.client.runs.create({ prompt, title: name, ...(parent ? { parent_run_id: parent } : {}) })).run_id);
  await create('root', 'Plan the work [simulate 50ms]');
  await create('tests', 'Write tests [simulate 50ms]', ids.root);
  await create('docs', 'Write docs [simulate 10s]', ids.root);
  await create('fixture', 'Make a fixture [simulate 50ms]', ids.tests);
  await create('other', 'Unrelated [simulate 50ms]');
  await local.client.runs.wait(ids.fixture!, { timeout: 10_000 });
});
afterAll(async () => {
  await local?.close();
});

describe('tree', () => {
  it('draws the run and those it started beneath it, with their states, and counts them', async () => {
    const result = await cli(['tree', ids.root!]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^${ids.root}  SUCCEEDED  root$`));
    expect(lines[1]).toMatch(new RegExp(`^├─ ${ids.tests}  SUCCEEDED  tests$`));
    expect(lines[2]).toMatch(new RegExp(`^│  └─ ${ids.fixture}  SUCCEEDED  fixture$`));
    expect(lines[3]).toMatch(new RegExp(`^└─ ${ids.docs}  (QUEUED|INPROGRESS)  docs`));
    // In a pipe: no colour.
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).not.toContain(ids.other);
    expect(result.stderr).toMatch(/^3 run\(s\) below it: 2 SUCCEEDED, 1 (QUEUED|INPROGRESS)\.$/m);
  });

  it('prints the tree as JSON with each run\'s children', async () => {
    const result = await cli(['tree', ids.tests!, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const tree = JSON.parse(result.stdout);
    expect(tree.run_id).toBe(ids.tests);
    expect(tree.children.map((c: { run_id: string }) => c.run_id)).toEqual([ids.fixture]);
    expect(tree.children[0].children).toEqual([]);
  });

  it('names a run that does not exist', async () => {
    const result = await cli(['tree', 'no-such-run']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/no-such-run/);
  });
});
