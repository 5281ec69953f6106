import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';

/** The start-up log of a command server with the sandbox off and these keys' principals. */
async function startLog(principals: string[]): Promise<string[]> {
  const lines: string[] = [];
  const server = await startServer({
    port: 0,
    storage: 'memory',
    log: (line) => lines.push(line),
    command: 'true',
    workDir: mkdtempSync(join(tmpdir(), 'agent-runs-bare-warning-')),
    sandbox: 'off',
    apiKeys: principals.map((principal, i) => ({ key: `bare-warning-key-${i}-0123456789`, principal })),
  });
  await server.close();
  return lines;
}

describe('agents run bare on a server of several principals', () => {
  it('warns at start, in one line, that their runs are not kept apart', async () => {
    const lines = await startLog(['alice', 'bob']);
    const warnings = lines.filter((line) => line.startsWith('Warning: agents run unsandboxed'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('2 principals');
    expect(warnings[0]).toContain('--sandbox on');
    expect(warnings[0]).not.toContain('\n');
  });

  it('says nothing more for one principal, however many keys it holds', async () => {
    const lines = await startLog(['alice', 'alice']);
    expect(lines.some((line) => line.startsWith('Sandbox off'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('Warning: agents run unsandboxed'))).toEqual([]);
  });
});
