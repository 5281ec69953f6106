import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer, type ServerOptions } from '../../src/index.js';

/**
 * Reproduction (issue 45, item 1), as the issue ran it: the agent replaces its artifacts
 * directory with a link to the server's data directory. At the run's end the server listed
 * the directory through the link and handed back `runs.sqlite`, `session-secret` and the
 * generated `api-key` as FILE artifacts.
 */
const AGENT = 'read -r target; rm -rf "$AGENT_RUNS_ARTIFACTS_DIR" && ln -s "$target" "$AGENT_RUNS_ARTIFACTS_DIR" && echo linked';

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const modes: { mode: string; options: ServerOptions }[] = [
  { mode: 'sandboxed, as nobody', options: { sandbox: 'on' } },
  { mode: 'bare, as a uid of --agent-uid-range', options: { sandbox: 'off', agentUidRange: '61000-61999' } },
];

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0).each(modes)('an artifacts directory linked to the data directory ($mode)', ({ options }) => {
  it('hands back nothing of the data directory, and says why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-link-data-'));
    const workDir = mkdtempSync(join(tmpdir(), 'agent-runs-link-work-'));
    temps.push(dataDir, workDir);
    const server: RunningServer = await startServer({ port: 0, quiet: true, storage: 'file', dataDir, workDir, command: AGENT, ...options });
    const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
    try {
      const { run_id } = await client.runs.create({ prompt: dataDir });
      const run = await client.runs.wait(run_id, { pollInterval: 50 });
      expect(run.state).toBe('SUCCEEDED');
      expect(run.artifacts ?? []).toEqual([]);
      const output = (await client.runs.output(run_id)).text;
      expect(output).toContain('linked');
      expect(output).toContain('the artifacts directory (or a directory above it) was replaced by a symbolic link or a file; nothing in it was read.');
    } finally {
      await client.close();
      await server.close();
    }
  }, 60_000);
});
