import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// The files the registries and the Marketplace read: package metadata, the MCP registry's
// server.json, action.yml, the example workflows, the changelog.
const root = fileURLToPath(new URL('../..', import.meta.url));
const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(root, path), 'utf8'));
const { validateAction, validateWorkflow } = createRequire(import.meta.url)('@action-validator/core') as typeof import('@action-validator/core');

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  [field: string]: unknown;
}
const workspaces = (readJson('package.json').workspaces as string[]).map((dir) => ({ dir, json: readJson(`${dir}/package.json`) as PackageJson }));
const publishable = workspaces.filter((w) => !w.json.private);

describe('package metadata', () => {
  it.each(publishable.map((w) => [w.json.name, w.json] as const))('%s has what a registry page needs', (_name, json) => {
    for (const field of ['description', 'keywords', 'repository', 'homepage', 'bugs', 'license', 'engines', 'files']) {
      expect(json[field], `${json.name}: "${field}"`).toBeTruthy();
    }
    expect(json.repository).toMatchObject({ type: 'git', url: 'git+https://github.com/agent-runs/agent-runs.git' });
    expect((json.engines as Record<string, string>).node).toMatch(/^>=20\./);
    expect(json.publishConfig).toMatchObject({ access: 'public' });
  });

  it('keeps every package at one version, and their dependencies on each other at that version', () => {
    const version = workspaces[0]!.json.version;
    for (const { json } of workspaces) {
      expect(json.version, json.name).toBe(version);
      for (const [name, range] of Object.entries(json.dependencies ?? {})) {
        if (name.startsWith('@agent-runs/')) expect(range, `${json.name} -> ${name}`).toBe(version);
      }
    }
  });

  it('has a CHANGELOG section for that version', () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(new RegExp(`^## ${workspaces[0]!.json.version.replaceAll('.', '\\.')}\\b`, 'm'));
  });
});

// The MCP registry's server.json (schema 2025-09-29), the fields this package uses.
const input = { description: z.string().optional(), isRequired: z.boolean().optional(), isSecret: z.boolean().optional(), format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(), default: z.string().optional() };
const exactVersion = z.string().min(1).refine((v) => v !== 'latest' && !/^[~^<>=]|\.[x*]|\s/.test(v), 'a specific version, not a range or "latest"');
const ServerJsonSchema = z.object({
  $schema: z.string().regex(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/),
  name: z.string().min(3).max(200).regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  description: z.string().min(1).max(100),
  version: z.string().max(255).and(exactVersion),
  websiteUrl: z.url().optional(),
  repository: z.object({ url: z.url(), source: z.string(), subfolder: z.string().optional() }).optional(),
  packages: z
    .array(
      z.strictObject({
        registryType: z.string(),
        registryBaseUrl: z.url().optional(),
        identifier: z.string(),
        version: exactVersion,
        transport: z.object({ type: z.literal('stdio') }).or(z.object({ type: z.enum(['streamable-http', 'sse']), url: z.string() })),
        environmentVariables: z.array(z.object({ name: z.string().min(1), ...input })).optional(),
        packageArguments: z.array(z.object({ type: z.enum(['named', 'positional']), name: z.string().optional(), ...input })).optional(),
      }),
    )
    .min(1),
});

describe('packages/mcp/server.json', () => {
  const serverJson = readJson('packages/mcp/server.json');
  const mcp = readJson('packages/mcp/package.json') as PackageJson;

  it('has the shape the MCP registry accepts', () => {
    const result = ServerJsonSchema.safeParse(serverJson);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it('names the npm package at its version, and the package claims the server name (mcpName)', () => {
    const parsed = ServerJsonSchema.parse(serverJson);
    expect(parsed.version).toBe(mcp.version);
    expect(parsed.packages[0]).toMatchObject({ registryType: 'npm', identifier: mcp.name, version: mcp.version });
    expect(mcp.mcpName).toBe(parsed.name);
    expect(mcp.files).toContain('server.json');
  });
});

// Feather icon names and colors the Marketplace accepts for `branding` (the icons this
// action might use; the Marketplace rejects names outside its set).
const BRANDING_COLORS = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'];

describe('action.yml', () => {
  const text = readFileSync(join(root, 'action.yml'), 'utf8');

  it('is valid against the action schema', () => {
    // The validator's schema predates the node24 runtime GitHub now runs; check the rest
    // of the file against it with node20 in its place, and the runtime on its own.
    expect(text).toMatch(/^\s+using:\s*['"]?node24['"]?\s*$/m);
    const state = validateAction(text.replace(/^(\s+using:\s*)['"]?node24['"]?\s*$/m, '$1node20'));
    expect(state.errors).toEqual([]);
  });

  it('has the Marketplace metadata: a name, a description of at most 125 characters, branding', () => {
    const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(text)?.[1]?.trim();
    expect(field('name')).toBeTruthy();
    expect(field('description')!.length).toBeLessThanOrEqual(125);
    expect(text).toMatch(/^branding:\n\s+icon:\s*[a-z0-9-]+\n\s+color:\s*([a-z-]+)\s*$/m);
    const color = /^\s+color:\s*([a-z-]+)\s*$/m.exec(text)![1]!;
    expect(BRANDING_COLORS).toContain(color);
  });
});

describe('examples/workflows', () => {
  const dir = join(root, 'examples', 'workflows');
  const files = readdirSync(dir).filter((name) => name.endsWith('.yml'));

  it('holds the common uses: a pull request, a schedule, a run started by hand', () => {
    const all = files.map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
    for (const trigger of ['pull_request', 'schedule', 'workflow_dispatch']) expect(all).toContain(trigger);
  });

  it.each(files)('%s is valid against the workflow schema', (name) => {
    const state = validateWorkflow(readFileSync(join(dir, name), 'utf8'));
    expect(state.errors).toEqual([]);
  });
});
