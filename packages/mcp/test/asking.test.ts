import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type RunningServer } from '@agent-runs/server';
import { BIN, binEnv, startHttpBin, textOf, type HttpBin } from './support/mcp-harness.js';
import { connectHttpV2, connectStdioV2, type Answerer, type Era } from './support/v2-clients.js';

let api: RunningServer;
let http: HttpBin;
let envId: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-asking-'));
  writeFileSync(join(dir, 'server.json'), JSON.stringify({ environments: { 'web-env': { name: 'Web app' } } }));
  api = await startServer({ port: 0, storage: 'memory', simulatedDurationMs: 100, quiet: true, configFile: join(dir, 'server.json') });
  envId = 'web-env';
  http = await startHttpBin(binEnv(api));
});
afterAll(async () => {
  await http?.close();
  await api?.close();
});

/** A user who says what to do and picks the first environment offered; records what was asked. */
function user(asked: string[]): Answerer {
  return (message, schema) => {
    asked.push(message);
    const [field, property] = Object.entries((schema.properties ?? {}) as Record<string, { oneOf?: Array<{ const: string }> }>)[0]!;
    return { [field]: property.oneOf ? property.oneOf[0]!.const : 'Fix the flaky test [simulate 50ms]' };
  };
}

const connect = {
  stdio: (era: Era, answer: Answerer) => connectStdioV2(binEnv(api), era, answer),
  http: (era: Era, answer: Answerer) => connectHttpV2(http.url, era, {}, answer),
};

describe.each(['stdio', 'http'] as const)('create_run asks for what is missing (SDK v2 client over %s)', (transport) => {
  it.each(['modern', 'legacy'] as const)('on the %s revision: the prompt, and an environment from the valid ones', async (era) => {
    const asked: string[] = [];
    const client = await connect[transport](era, user(asked));
    try {
      const result = await client.callTool({ name: 'create_run', arguments: { environment: 'no-such-env' } });
      expect(result.isError, textOf(result)).toBeFalsy();
      const run_id = (result.structuredContent as { run_id: string }).run_id;
      expect(asked).toEqual([expect.stringContaining('What should the cloud agent do?'), expect.stringContaining('There is no environment "no-such-env"')]);
      const run = await client.callTool({ name: 'get_run', arguments: { run_id } });
      expect(JSON.stringify(run.structuredContent)).toContain('Fix the flaky test');
      expect(JSON.stringify(run.structuredContent)).toContain(envId);
    } finally {
      await client.close();
    }
  });
});

describe('create_run asks through elicitation on 2025-11-25 (SDK v1 client)', () => {
  it('takes the prompt the user gives', async () => {
    const client = new V1Client({ name: 'v1-host', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { prompt: 'Answer a question [simulate 50ms]' } };
    });
    await client.connect(new V1Stdio({ command: process.execPath, args: [BIN], env: binEnv(api), stderr: 'pipe' }));
    try {
      const result = await client.callTool({ name: 'create_run', arguments: {} });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(asked).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('answers a decline with an error and starts nothing', async () => {
    const client = new V1Client({ name: 'v1-host', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    await client.connect(new V1Stdio({ command: process.execPath, args: [BIN], env: binEnv(api), stderr: 'pipe' }));
    try {
      const before = (await client.callTool({ name: 'list_runs', arguments: {} })).structuredContent as { runs: unknown[] };
      const result = await client.callTool({ name: 'create_run', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('declined to give prompt');
      const after = (await client.callTool({ name: 'list_runs', arguments: {} })).structuredContent as { runs: unknown[] };
      expect(after.runs.length).toBe(before.runs.length);
    } finally {
      await client.close();
    }
  });
});
