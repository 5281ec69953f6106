import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.js';
import { startTestServer } from './support/local-server.js';

/** `agent-runs quota` against a real local server whose configuration file gives the caller quotas. */
let local: Awaited<ReturnType<typeof startTestServer>>;
const cli = (args: string[]) => runCli([...local.target, ...args], { env: local.env });

beforeAll(async () => {
  const configFile = join(mkdtempSync(join(tmpdir(), 'agent-runs-cli-quota-')), 'config.json');
  writeFileSync(configFile, JSON.stringify({ quotas: { principals: { tester: { runs_in_flight: 5, creates_per_minute: 30, spend_per_day_usd: 2.5 } } } }));
  local = await startTestServer({ configFile, simulatedDurationMs: 30_000 });
  await local.client.runs.create({ prompt: 'hello' });
});
afterAll(async () => {
  await local?.close();
});

describe('agent-runs quota', () => {
  it('prints each quota with its use, limit and reset as a table', async () => {
    const result = await cli(['quota']);
    expect(result.code, result.stderr).toBe(0);
    const day = new Date().toISOString().slice(0, 10);
    expect(result.stdout).toContain(`Principal tester, UTC day ${day}:`);
    expect(result.stdout).toMatch(/QUOTA\s+USED\s+LIMIT\s+RESETS/);
    expect(result.stdout).toMatch(/runs_in_flight\s+[01]\s+5\n/);
    expect(result.stdout).toMatch(/runs_queued\s+[01]\s+none\n/);
    // The window frees within 60 s: "in 59 s", or "in 1 min" when it was read in the same second as the create.
    expect(result.stdout).toMatch(/creates_per_minute\s+1\s+30\s+in (\d+ s|1 min)\n/);
    expect(result.stdout).toMatch(/spend_per_day_usd\s+\$0\.00\s+\$2\.50\s+\d{4}-\d\d-\d\dT00:00:00\.000Z \(in (\d+ h )?\d+ min\)\n/);
  });

  it('prints the server answer with --json', async () => {
    const result = await cli(['quota', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      principal: 'tester',
      runs_in_flight: { limit: 5 },
      creates_per_minute: { used: 1, limit: 30 },
      spend_today: { spent_usd: 0, tokens: 0, limit_usd: 2.5, resets_at: expect.stringMatching(/T00:00:00\.000Z$/) },
    });
  });

  it('takes no arguments', async () => {
    const result = await cli(['quota', 'now']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"quota" takes no arguments');
  });
});
