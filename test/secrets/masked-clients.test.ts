import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AgentRunsClient } from '@agent-runs/core';
import { createMcpServer, TaskRegistry } from '@agent-runs/mcp';
import type { RunningServer } from '@agent-runs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep } from '../../packages/action/test/support/runner.js';
import { writeServerConfig } from '../../packages/server/test/support/server-config.js';
import { startCommandAgentServer, writeAgentScript } from '../support/command-agent.js';

/** A secret the server's configuration declares by name, which the agent has learnt and prints. */
const SECRET = 'ghs_masked-clients-7Yx2Lq9/+=';
const forms = [SECRET, Buffer.from(SECRET).toString('base64'), encodeURIComponent(SECRET)];

// It prints the secret as is and in base64, and ends with a result that quotes it.
const AGENT = `cat > /dev/null
printf 'token %s\\n' '${SECRET}'
printf '%s' '${SECRET}' | base64
printf '{"type":"RESULT","message":"done with %s"}\\n' '${SECRET}' >> "$AGENT_RUNS_REPORT_FILE"
`;

let server: RunningServer;
let api: AgentRunsClient;
let tasks: TaskRegistry;
let mcp: Client;

beforeAll(async () => {
  process.env.AGENT_RUNS_TEST_CLIENT_SECRET = SECRET;
  const { command } = writeAgentScript(AGENT);
  server = await startCommandAgentServer(command, { configFile: writeServerConfig({ secrets: { CLIENT_SECRET: { from_env: 'AGENT_RUNS_TEST_CLIENT_SECRET' } } }) });
  api = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
  tasks = new TaskRegistry();
  const [inside, outside] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client: api, tasks, heartbeatMs: 1_000, pollIntervalMs: 50, readOnly: false }).connect(inside);
  mcp = new Client({ name: 'agent-runs-secrets-test', version: '1.0.0' });
  await mcp.connect(outside);
});
afterAll(async () => {
  await mcp?.close();
  tasks?.close();
  await api?.close();
  await server?.close();
  delete process.env.AGENT_RUNS_TEST_CLIENT_SECRET;
});

function expectMasked(place: string, text: string): void {
  for (const form of forms) expect(text, `${place} shows the secret`).not.toContain(form);
}

describe('a named secret an agent prints, as the clients show it', () => {
  it('is masked in the MCP tools’ results', async () => {
    const created = await mcp.callTool({ name: 'create_run', arguments: { prompt: 'print the token' } });
    const { run_id } = created.structuredContent as { run_id: string };
    const results = [await mcp.callTool({ name: 'wait_for_run', arguments: { run_id } })];
    for (const name of ['get_run', 'get_run_output', 'get_run_conversation']) results.push(await mcp.callTool({ name, arguments: { run_id } }));
    const text = JSON.stringify(results);
    expect(text).toContain('token ***');
    expect(text).toContain('done with ***');
    expectMasked('MCP', text);
  });

  it('is masked in the Action’s log, summary and outputs', async () => {
    const step = await runStep({ inputs: { 'api-key': server.apiKey, 'base-url': server.baseURL, 'poll-interval': '100ms', prompt: 'print the token' } });
    expect(step.code, step.stderr).toBe(0);
    expect(step.stdout).toContain('token ***');
    expect(step.outputs['status-message']).toBe('done with ***');
    expectMasked('the log', step.stdout + step.stderr);
    // The summary escapes markdown's `*` as a character reference.
    expect(step.summary).toContain('done with &#42;&#42;&#42;');
    expect(step.summary).toContain('token &#42;&#42;&#42;');
    expectMasked('the summary', step.summary);
    expectMasked('the outputs', JSON.stringify(step.outputs));
  });
});
