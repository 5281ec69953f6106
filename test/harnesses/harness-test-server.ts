import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentRunsClient } from '@agent-runs/core';
import { startServer, type RunningServer, type ServerOptions } from '@agent-runs/server';

/** The installed CLI of a harness (test/support/harness-global-setup.ts), or a clear failure. */
export function harnessCli(name: 'claude' | 'codex' | 'gemini'): string {
  const variable = `AGENT_RUNS_TEST_HARNESS_${name.toUpperCase()}`;
  const path = process.env[variable];
  if (!path) throw new Error(`${variable} is not set: the harness CLIs were not installed (node scripts/install-harnesses.mjs).`);
  return path;
}

export interface HarnessTestServer {
  server: RunningServer;
  client: AgentRunsClient;
  workDir: string;
  close(): Promise<void>;
}

/**
 * A local server whose configuration file's `harnesses:` section is `harnesses`, with the
 * server variables `env` set while it starts (the harness keys and base URLs it passes on).
 */
export async function startHarnessServer(
  harnesses: Record<string, unknown>,
  env: Record<string, string>,
  options: ServerOptions = {},
  moreConfig: Record<string, unknown> = {},
): Promise<HarnessTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-harness-test-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ harnesses, ...moreConfig }));
  const workDir = join(dir, 'work');
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let server: RunningServer;
  try {
    server = await startServer({ port: 0, storage: 'memory', quiet: true, configFile, workDir, ...options });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey });
  return { server, client, workDir, close: () => server.close() };
}
