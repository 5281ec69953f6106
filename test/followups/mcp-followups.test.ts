import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binEnv, connectStdio, type StdioSession } from '../../packages/mcp/test/support/mcp-harness.js';
import { FILE_BYTES, startAgentServer } from './followup-agent-server.js';

let t: Awaited<ReturnType<typeof startAgentServer>>;
let mcp: StdioSession;
beforeAll(async () => {
  t = await startAgentServer();
  mcp = await connectStdio(binEnv(undefined, t.env));
});
afterAll(async () => {
  await mcp?.close();
  await t?.close();
});

type Text = { type: string; text?: string; uri?: string };

describe('follow-ups and artifacts over MCP, with a command agent', () => {
  it('shows a run’s pull request and file in get_run, reads the file as a resource, and follows up with a wait', async () => {
    const created = await mcp.client.callTool({ name: 'create_run', arguments: { prompt: 'Fix the parser' } });
    const { run_id } = created.structuredContent as { run_id: string };
    await mcp.client.callTool({ name: 'wait_for_run', arguments: { run_id } });

    const got = await mcp.client.callTool({ name: 'get_run', arguments: { run_id } });
    const content = got.content as Text[];
    expect(content.map((c) => c.text ?? '').join('\n')).toContain('PULL_REQUEST: agent/fix-parser https://github.com/acme/app/pull/42');
    const link = content.find((c) => c.type === 'resource_link')!;
    expect(link.uri).toMatch(new RegExp(`^agent-run://${run_id}/artifacts/`));
    const read = await mcp.client.readResource({ uri: link.uri! });
    // report.bin is not text or an image: offered as a link, which serves the exact bytes.
    const offered = JSON.parse((read.contents[0] as { text: string }).text) as { download_url: string };
    expect(Buffer.from(await (await fetch(offered.download_url)).arrayBuffer())).toEqual(FILE_BYTES);

    const progress: string[] = [];
    const followed = await mcp.client.callTool(
      { name: 'follow_up_run', arguments: { run_id, message: 'Now add a test', wait: true } },
      undefined,
      { onprogress: (p: { message?: string | undefined }) => void progress.push(String(p.message)) },
    );
    expect(followed.isError).toBeFalsy();
    const output = followed.structuredContent as { state: string; wait: { finished: boolean; run: { status_message: { message: string } } } };
    expect(output.state).toBe('QUEUED');
    expect(output.wait.finished).toBe(true);
    expect(output.wait.run.status_message.message).toBe('execution 2 opened a pull request');
    expect(progress.length).toBeGreaterThan(0);
    // Progress tells of the execution the follow-up started, never of the first one's output.
    expect(progress.join('\n')).not.toContain('working on execution 1');

    const conversation = await mcp.client.callTool({ name: 'get_run_conversation', arguments: { run_id } });
    const text = (conversation.content as Text[])[0]!.text!;
    expect(text).toContain('user: Fix the parser');
    expect(text).toContain('user: Now add a test');
  });

  it('names the bad argument for an empty message, and says so for an unknown run', async () => {
    const empty = await mcp.client.callTool({ name: 'follow_up_run', arguments: { run_id: 'x', message: '' } });
    expect(empty.isError).toBe(true);
    expect(JSON.stringify(empty.content)).toMatch(/message/);
    const unknown = await mcp.client.callTool({ name: 'follow_up_run', arguments: { run_id: 'no-such-run', message: 'hi' } });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toMatch(/404|No run/);
  });

  it('hides follow_up_run in read-only mode but keeps get_run_conversation', async () => {
    const ro = await connectStdio(binEnv(undefined, t.env), ['--read-only']);
    try {
      const names = (await ro.client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain('follow_up_run');
      expect(names).toContain('get_run_conversation');
    } finally {
      await ro.close();
    }
  });
});

describe('artifact resources over MCP', () => {
  it('reads a small text file inline and a screenshot as a blob', async () => {
    const sim = await startAgentServer({ executor: 'simulated', simulatedDurationMs: 10 });
    const session = await connectStdio(binEnv(undefined, sim.env));
    try {
      const run = await sim.client.runs.createAndWait({ prompt: 'Show me [simulate artifact file screenshot]' }, { pollInterval: 20 });
      const got = await session.client.callTool({ name: 'get_run', arguments: { run_id: run.run_id } });
      const links = (got.content as Text[]).filter((c) => c.type === 'resource_link').map((c) => c.uri!);
      expect(links).toHaveLength(2);
      const text = await session.client.readResource({ uri: links[0]! });
      expect(text.contents[0]).toMatchObject({ mimeType: 'text/plain', text: expect.stringContaining(`run ${run.run_id}`) });
      const image = await session.client.readResource({ uri: links[1]! });
      expect(image.contents[0]).toMatchObject({ mimeType: 'image/png' });
      expect(Buffer.from((image.contents[0] as { blob: string }).blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
      // An artifact is read only through its own run.
      const other = await sim.client.runs.createAndWait({ prompt: 'Nothing [simulate 10ms]' }, { pollInterval: 20 });
      const uid = links[0]!.split('/').pop()!;
      await expect(session.client.readResource({ uri: `agent-run://${other.run_id}/artifacts/${uid}` })).rejects.toThrow(/has no artifact/);
    } finally {
      await session.close();
      await sim.close();
    }
  });
});
