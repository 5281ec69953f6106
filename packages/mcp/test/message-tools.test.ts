import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@agent-runs/server';
import { AgentRunsClient } from '@agent-runs/core';
import { binEnv, connectStdio, startRunsApi, textOf, type StdioSession } from './support/mcp-harness.js';

/** send_message and read_messages, through the real MCP client over stdio, against a real local server. */
let api: RunningServer;
let client: AgentRunsClient;
let parent: string;
let child: string;
const sessions: StdioSession[] = [];
beforeAll(async () => {
  api = await startRunsApi();
  client = new AgentRunsClient({ baseURL: api.baseURL, apiKey: api.apiKey, maxRetries: 0 });
  parent = (await client.runs.create({ prompt: 'Lead [simulate 30s]' })).run_id;
  child = (await client.runs.create({ prompt: 'Part [simulate 30s]', parent_run_id: parent })).run_id;
});
afterAll(async () => {
  for (const s of sessions) await s.close();
  for (const id of [parent, child]) await client.runs.cancel(id).catch(() => {});
  await client.close();
  await api?.close();
});

async function connect(extra: Record<string, string> = {}): Promise<StdioSession> {
  const session = await connectStdio(binEnv(api, extra));
  sessions.push(session);
  return session;
}

describe('the message tools', () => {
  it('send from the run the server speaks for; the recipient reads each once, marked read, and sees none unread after', async () => {
    const asParent = await connect({ AGENT_RUNS_RUN_ID: parent });
    const sent = await asParent.client.callTool({ name: 'send_message', arguments: { to: [child], subject: 'Your part', body: 'Write the tests for parser.ts' } });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect((sent.structuredContent as { message_ids: string[] }).message_ids).toHaveLength(1);
    const asChild = await connect({ AGENT_RUNS_RUN_ID: child });
    const read = await asChild.client.callTool({ name: 'read_messages', arguments: {} });
    expect(read.isError, textOf(read)).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ run_id: child, messages: [{ sender_run_id: parent, subject: 'Your part', body: 'Write the tests for parser.ts', body_cut: false }] });
    expect(textOf(read)).toContain(`From run ${parent}`);
    const again = await asChild.client.callTool({ name: 'read_messages', arguments: {} });
    expect(textOf(again)).toBe(`No unread messages for run ${child}.`);
    const all = await asChild.client.callTool({ name: 'read_messages', arguments: { all: true } });
    expect((all.structuredContent as { messages: unknown[] }).messages).toHaveLength(1);
  }, 30_000);

  it('names the missing run id when the server speaks for no run', async () => {
    const plain = await connect();
    const result = await plain.client.callTool({ name: 'read_messages', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^run_id is required: the run id to speak for/);
    const send = await plain.client.callTool({ name: 'send_message', arguments: { to: [child], subject: 's', body: 'b' } });
    expect(textOf(send)).toMatch(/^sender_run_id is required/);
  }, 30_000);
});
