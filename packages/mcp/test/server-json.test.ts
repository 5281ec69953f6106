import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunningServer } from '@agent-runs/server';
import { BIN, binEnv, startRunsApi } from './support/mcp-harness.js';
import { connectHttpV2 } from './support/v2-clients.js';

// The registry's server.json, schema 2025-12-11: the fields this package uses, strictly.
const input = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  default: z.string().optional(),
  value: z.string().optional(),
};
const withVariables = { ...input, variables: z.record(z.string(), z.strictObject(input)).optional() };
const keyValue = z.strictObject({ name: z.string().min(1), ...withVariables });
const exactVersion = z.string().min(1).refine((v) => v !== 'latest' && !/^[~^<>=]|\.[x*]|\s/.test(v), 'a specific version');
const ServerJson = z.strictObject({
  $schema: z.literal('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'),
  name: z.string().min(3).max(200).regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  title: z.string().min(1).max(100),
  description: z.string().min(1).max(100),
  version: exactVersion,
  websiteUrl: z.url(),
  repository: z.strictObject({ url: z.url(), source: z.string(), subfolder: z.string() }),
  packages: z.array(
    z.strictObject({
      registryType: z.literal('npm'),
      registryBaseUrl: z.url(),
      identifier: z.string(),
      version: exactVersion,
      transport: z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('stdio') }),
        z.strictObject({ type: z.literal('streamable-http'), url: z.string(), headers: z.array(keyValue).optional() }),
      ]),
      packageArguments: z.array(z.strictObject({ type: z.literal('named'), name: z.string().startsWith('--'), ...withVariables })).optional(),
      environmentVariables: z.array(keyValue),
    }),
  ),
});

const serverJson = ServerJson.parse(JSON.parse(readFileSync(new URL('../server.json', import.meta.url), 'utf8')));
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string; mcpName: string };

describe('server.json', () => {
  it('is on the registry schema of 2025-12-11 and names this package at its version', () => {
    expect(serverJson.name).toBe(packageJson.mcpName);
    expect(serverJson.version).toBe(packageJson.version);
    expect(serverJson.packages.map((p) => [p.identifier, p.version, p.transport.type])).toEqual([
      [packageJson.name, packageJson.version, 'stdio'],
      [packageJson.name, packageJson.version, 'streamable-http'],
    ]);
  });

  describe('the HTTP package, started as a host would from its arguments and variables', () => {
    let api: RunningServer;
    let stop: () => Promise<void>;
    let url: string;
    const token = 'server-json-token-0123456789abcdef';
    beforeAll(async () => {
      api = await startRunsApi();
      const http = serverJson.packages[1]!;
      // The host substitutes {port} (0: a free one, read back from the bin's line) and {token}.
      const args = http.packageArguments!.flatMap((a) => (a.value ? [a.name, a.value.replace('{port}', '0')] : [a.name]));
      const env: Record<string, string> = { ...binEnv(api) };
      for (const variable of http.environmentVariables) if (variable.name === 'AGENT_RUNS_MCP_AUTH_TOKEN') env[variable.name] = token;
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      const port = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /at http:\/\/127\.0\.0\.1:(\d+)\/mcp \(bearer token required\)/.exec(stderr);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      url = (http.transport as { url: string }).url.replace('{port}', port);
      stop = async () => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      };
    });
    afterAll(async () => {
      await stop?.();
      await api?.close();
    });

    it('serves both revisions at the URL template with the header it names', async () => {
      const header = (serverJson.packages[1]!.transport as { headers: Array<{ name: string; value?: string }> }).headers[0]!;
      for (const era of ['modern', 'legacy'] as const) {
        const client = await connectHttpV2(url, era, { [header.name]: header.value!.replace('{token}', token) });
        expect((await client.listTools()).tools.length).toBeGreaterThan(10);
        await client.close();
      }
    });
  });
});
