import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRunsClient } from '@agent-runs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { serverCommandFor, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { probeAgentCommandWith } from './probe-agent.js';

// A server run as an ordinary user (nobody here), with its secrets and configuration in /etc
// as the README lays them out: its agents run as its own uid, and must still not read them.
const isRoot = process.getuid?.() === 0;
const SERVER = { uid: 65534, gid: 65534 };
const KEY = 'non-root-server-test-key-0123456789';

let secretsDir: string;
let confDir: string;
let workRoot: string;
let dataDir: string;
let server: ServerProcess | undefined;
let client: AgentRunsClient;

/** `path` with `text`, owned by uid:gid with `mode`. */
function own(path: string, mode: number, uid: number, gid: number, text?: string): string {
  if (text !== undefined) writeFileSync(path, text);
  else if (!existsSync(path)) mkdirSync(path);
  chownSync(path, uid, gid);
  chmodSync(path, mode);
  return path;
}

beforeAll(async () => {
  if (!isRoot) return;
  // /etc/agent-runs-…/anthropic-key: a 0700 directory and a 0600 file of the server's user.
  secretsDir = own(mkdtempSync('/etc/agent-runs-test-secrets-'), 0o700, SERVER.uid, SERVER.gid);
  own(join(secretsDir, 'anthropic-key'), 0o600, SERVER.uid, SERVER.gid, 'sk-ant-server-only\n');
  // A readable directory holding the configuration (0600, the server's), a file of its group, and a public one.
  confDir = own(mkdtempSync('/etc/agent-runs-test-conf-'), 0o755, 0, 0);
  const config = writeServerConfig({ secrets: { ANTHROPIC_API_KEY: { from_file: join(secretsDir, 'anthropic-key') } } }, confDir);
  own(config, 0o600, SERVER.uid, SERVER.gid);
  own(join(confDir, 'group-only'), 0o640, 0, SERVER.gid, 'group secret\n');
  own(join(confDir, 'public'), 0o644, 0, 0, 'public\n');
  // Its work root inside that directory: the run's own directory is bound into the hidden one.
  workRoot = own(join(secretsDir, 'work'), 0o700, SERVER.uid, SERVER.gid);
  dataDir = own(tempTree({}, 'agent-runs-nonroot-data-'), 0o700, SERVER.uid, SERVER.gid);
  // This clone and its Node as the server's user can run them (a copy where they lie in a private home).
  const command = serverCommandFor(SERVER.uid, SERVER.gid);
  const args = ['--data-dir', dataDir, '--work-dir', workRoot, '--api-key', KEY, '--executor', 'command', '--command', probeAgentCommandWith(command.node)];
  const env = { PATH: process.env.PATH, HOME: dataDir };
  server = await startServerProcess([...args, '--sandbox', 'on', '--network', 'none', '--config', config], env, { ...SERVER, ...command });
  client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
}, 180_000);

afterAll(async () => {
  await client?.close();
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  for (const dir of [secretsDir, confDir, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!isRoot)('an agent of a server that runs as an ordinary user', () => {
  it("reads neither the server's secret files nor its configuration in /etc, only what every user may read there", async () => {
    const key = join(secretsDir, 'anthropic-key');
    const config = join(confDir, 'agent-runs-server.json');
    const plan = { read: [key, config, join(confDir, 'group-only'), join(confDir, 'public')], list: [secretsDir, workRoot, confDir], unshare: true };
    const { run_id } = await client.runs.create({ prompt: JSON.stringify(plan) });
    const run = await client.runs.wait(run_id, { pollInterval: 50, timeout: 60_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    const result = JSON.parse(readFileSync(join(workRoot, run_id, 'result.json'), 'utf8'));
    expect(result).toMatchObject({
      uid: SERVER.uid,
      // The 0700 directory is empty but for the way to the run's own, the files the server's user alone (or its group) may read cannot be opened.
      [`read ${key}`]: 'ENOENT',
      [`list ${secretsDir}`]: ['work'],
      [`list ${workRoot}`]: ['.agent-runs', run_id].sort(),
      [`read ${config}`]: 'EACCES',
      [`read ${join(confDir, 'group-only')}`]: 'EACCES',
      [`read ${join(confDir, 'public')}`]: 'ok',
      [`list ${confDir}`]: ['agent-runs-server.json', 'group-only', 'public'],
      // Nor can it make a user namespace of its own (unshare exits 1 when refused).
      unshare: 1,
    });
    expect(server!.stderr()).toMatch(/see only their run's files and the system read-only, except \d+ path\(s\) only the server's user may read/);
  }, 120_000);
});
