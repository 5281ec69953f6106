import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, type RunItem } from '@agent-runs/core';
import { runCli } from './support/cli-process.js';
import { startTestServer, TEST_KEY } from './support/local-server.js';

let local: Awaited<ReturnType<typeof startTestServer>>;
const seeded: string[] = [];
let failedId: string;
let cliRunId: string;

const cli = (args: string[]) => runCli([...local.target, ...args], { env: local.env });
const listed = (stdout: string) => (JSON.parse(stdout) as { runs: RunItem[]; page_info: { has_next_page: boolean } });

beforeAll(async () => {
  local = await startTestServer();
  for (let i = 0; i < 5; i++) {
    const { run_id } = await local.client.runs.create({ prompt: `Routine task ${i} [simulate 0ms]` });
    seeded.push(run_id);
  }
  failedId = (await local.client.runs.create({ prompt: 'Doomed [simulate fail 0ms]' })).run_id;
  // A run that says it comes from the command line, with a name and a searchable title.
  const asCli = new AgentRunsClient({ baseURL: local.server.baseURL, apiKey: TEST_KEY, source: 'CLI' });
  cliRunId = (await asCli.runs.create({ prompt: 'Find the needle [simulate 0ms]', config: { name: 'nightly' } })).run_id;
  await asCli.close();
  for (const id of [...seeded, failedId, cliRunId]) await local.client.runs.wait(id, { pollInterval: 20 });
});
afterAll(async () => {
  await local?.close();
});

describe('list', () => {
  it('prints a table of runs with ids, states and titles, and says when there are more', async () => {
    const result = await cli(['list', '--limit', '3']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^RUN ID\s+STATE\s+SOURCE\s+UPDATED\s+TITLE$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^\S+\s+(SUCCEEDED|FAILED)\s+(API|CLI)\s+\d+\w* ago\s+\S/);
    expect(result.stderr).toContain('3 runs shown; there are more: pass --all, or a larger --limit.');
  });

  it('follows every page with --all', async () => {
    const result = await cli(['list', '--all', '--limit', '2', '--json']);
    expect(result.code).toBe(0);
    const { runs, page_info } = listed(result.stdout);
    const ids = runs.map((run) => run.run_id);
    expect(new Set(ids).size).toBe(7);
    expect(ids).toEqual(expect.arrayContaining([...seeded, failedId, cliRunId]));
    expect(page_info.has_next_page).toBe(false);
  });

  it('passes the state filter, case-insensitive and comma-separated', async () => {
    const result = await cli(['list', '--state', 'failed,cancelled', '--json']);
    expect(listed(result.stdout).runs.map((run) => run.run_id)).toEqual([failedId]);
  });

  it('combines search, source and name filters', async () => {
    const result = await cli(['list', '--search', 'NEEDLE', '--source', 'cli', '--name', 'nightly', '--json']);
    expect(listed(result.stdout).runs.map((run) => run.run_id)).toEqual([cliRunId]);
  });

  it('sorts as asked and reads a relative time bound', async () => {
    const result = await cli(['list', '--sort-by', 'created_at', '--sort-order', 'asc', '--created-after', '1h', '--limit', '2', '--json']);
    const { runs, page_info } = listed(result.stdout);
    expect(runs.map((run) => run.run_id)).toEqual(seeded.slice(0, 2));
    expect(page_info.has_next_page).toBe(true);
  });

  it('says so on stderr when nothing matches, with an empty stdout and exit 0', async () => {
    const result = await cli(['list', '--q', 'no run has this text']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: 'No runs match.\n' });
  });
});
