import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { RunningServer } from '@agent-runs/server';
import { binEnv, startHttpBin, startRunsApi, type HttpBin } from './support/mcp-harness.js';
import { connectHttpV2, connectStdioV2, type Era } from './support/v2-clients.js';

let api: RunningServer;
let http: HttpBin;

beforeAll(async () => {
  api = await startRunsApi();
  http = await startHttpBin(binEnv(api));
});
afterAll(async () => {
  await http?.close();
  await api?.close();
});

type Icon = { src: string; mimeType?: string; sizes?: string[] };

/** An icon as the schema has it, and an SVG that draws and runs nothing. */
function expectInlineSvg(icons: Icon[] | undefined, what: string): void {
  expect(icons?.length, what).toBeGreaterThan(0);
  for (const icon of icons!) {
    expect(icon.mimeType, what).toBe('image/svg+xml');
    expect(icon.sizes, what).toEqual(['any']);
    const match = /^data:image\/svg\+xml;base64,(.+)$/.exec(icon.src);
    expect(match, what).not.toBeNull();
    const svg = Buffer.from(match![1]!, 'base64').toString();
    expect(svg, what).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/);
    expect(svg, what).not.toMatch(/<script|on[a-z]+=|href=/i);
  }
}

describe.each(['stdio', 'http'] as const)('icons over %s', (transport) => {
  describe.each(['modern', 'legacy'] as const)('on the %s revision', (era: Era) => {
    let client: Client;
    beforeAll(async () => {
      client = transport === 'stdio' ? await connectStdioV2(binEnv(api), era) : await connectHttpV2(http.url, era);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('tools/list gives every tool its icons', async () => {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(15);
      for (const tool of tools) expectInlineSvg((tool as { icons?: Icon[] }).icons, tool.name);
      const icon = (name: string) => (tools.find((t) => t.name === name) as { icons?: Icon[] }).icons?.[0]?.src;
      // Drawn by what a tool does: starting a run is not listing runs.
      expect(icon('create_run')).not.toBe(icon('list_runs'));
    });

    it('the server says who it is with its icons', () => {
      const info = client.getServerVersion() as { name: string; icons?: Icon[] };
      expect(info.name).toBe('agent-runs');
      expectInlineSvg(info.icons, 'server');
    });
  });
});
