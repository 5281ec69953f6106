import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRunsClient, NotFoundError, RequestValidationError, UnprocessableEntityError } from '@agent-runs/core';
import { startServer, type RunningServer } from '@agent-runs/server';

// The core client's mailbox and event feed against the real local server.
let server: RunningServer;
let client: AgentRunsClient;
beforeAll(async () => {
  server = await startServer({ port: 0, storage: 'memory', quiet: true, concurrency: 4 });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('client.messages', () => {
  it('sends, lists, reads and marks delivered', async () => {
    const [sender, to] = [(await client.runs.create({ prompt: '[simulate hang]' })).run_id, (await client.runs.create({ prompt: '[simulate hang]' })).run_id];
    const { message_ids } = await client.messages.send({ to: [to], subject: 'status?', body: 'How far along are you?', sender_run_id: sender });
    const id = message_ids[0]!;
    expect(await client.messages.list(to, { unread: true, limit: 10 })).toEqual([
      expect.objectContaining({ message_id: id, sender_run_id: sender, subject: 'status?', read_at: null }),
    ]);
    expect(await client.messages.delivered(id)).toBeUndefined();
    const read = await client.messages.read(id);
    expect(read).toMatchObject({ message_id: id, body: 'How far along are you?', read_at: expect.any(String), delivered_at: expect.any(String) });
    expect(await client.messages.list(to, { unread: true })).toEqual([]);
    for (const run of [sender, to]) await client.runs.cancel(run);
    // Both have ended now: a message to either is refused as the service does.
    await expect(client.messages.send({ to: [to], subject: 's', body: 'b', sender_run_id: sender })).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it('names a mistake before sending, and answers NotFoundError for a message it may not see', async () => {
    const big = await client.messages.send({ to: ['r'], subject: 's', body: 'x'.repeat(131_073), sender_run_id: 'r' }).catch((e: unknown) => e);
    expect(big).toBeInstanceOf(RequestValidationError);
    expect((big as Error).message).toMatch(/body: must be at most 131072 characters/);
    await expect(client.messages.list('r', { limit: 101 })).rejects.toThrow(/limit: must be an integer from 1 to 100/);
    await expect(client.messages.read('')).rejects.toThrow(/messageId: must be a non-empty string/);
    await expect(client.messages.read('no-such-message')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('client.events', () => {
  it('reports events and lists those after a sequence across watched runs', async () => {
    const [a, b] = [(await client.runs.create({ prompt: '[simulate hang]' })).run_id, (await client.runs.create({ prompt: '[simulate hang]' })).run_id];
    const first = await client.events.report(a, { event_type: 'run_in_progress', execution_id: 'e1' });
    const second = await client.events.report(b, { event_type: 'run_blocked', ref_id: 'why' });
    const third = await client.events.report(a, { event_type: 'run_succeeded' });
    const all = await client.events.list({ run_ids: [a, b], since: first.sequence - 1 });
    expect(all.map((e) => [e.run_id, e.event_type, e.sequence])).toEqual([
      [a, 'run_in_progress', first.sequence],
      [b, 'run_blocked', second.sequence],
      [a, 'run_succeeded', third.sequence],
    ]);
    expect((await client.events.list({ run_ids: [a, b], since: second.sequence })).map((e) => e.sequence)).toEqual([third.sequence]);
    expect((await client.events.list({ run_ids: [b] })).map((e) => e.event_type)).toEqual(['run_blocked']);
    await expect(client.events.list({ run_ids: [] })).rejects.toThrow(/run_ids: must be a non-empty array/);
    await expect(client.events.report(a, { event_type: 'run_exploded' as never })).rejects.toBeInstanceOf(RequestValidationError);
    for (const run of [a, b]) await client.runs.cancel(run);
  });
});
