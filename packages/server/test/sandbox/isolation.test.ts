import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';
import { probeAgentCommand } from './probe-agent.js';

const dataDir = tempTree({}, 'agent-runs-sandbox-data-');
const workRoot = tempTree({}, 'agent-runs-sandbox-work-');
const home = tempTree({ '.ssh/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\n' }, 'agent-runs-sandbox-home-');
let t: TestServer;
let other: Server;
let allowed: HttpServer;
const port = (s: Server | HttpServer) => (s.address() as AddressInfo).port;

beforeAll(async () => {
  other = createServer((c) => c.end('other listener\n')).listen(0, '127.0.0.1');
  allowed = createHttpServer((_req, res) => res.end('allowed host\n')).listen(0, '127.0.0.1');
  await Promise.all([new Promise((r) => other.once('listening', r)), new Promise((r) => allowed.once('listening', r))]);
  t = await startTestServer({
    storage: 'file',
    dataDir,
    workDir: workRoot,
    executor: 'command',
    command: probeAgentCommand,
    sandbox: 'on',
    network: 'none',
    configFile: writeServerConfig({ environments: { 'allow-list': { network: [`127.0.0.1:${port(allowed)}`] } } }),
  });
});
afterAll(async () => {
  await t?.close();
  other?.close();
  allowed?.close();
});

async function probe(plan: Record<string, unknown>, config: Record<string, unknown> = {}): Promise<{ runId: string; result: Record<string, unknown> }> {
  const { run_id } = await t.client.runs.create({ prompt: JSON.stringify(plan), config });
  const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
  expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
  return { runId: run_id, result: JSON.parse(readFileSync(join(workRoot, run_id, 'result.json'), 'utf8')) };
}

/** What the agent tries besides the network: the server's files, another run's, writing outside its own directory. */
function filesPlan(other: string) {
  return {
    read: [join(dataDir, 'runs.sqlite'), join(dataDir, 'session-secret'), join(home, '.ssh/id_rsa'), join(workRoot, other, 'mcp.json')],
    list: [join(workRoot, other), workRoot, dataDir, homedir()],
    write: [join(workRoot, 'planted'), '/usr/planted', '/etc/planted', join(workRoot, other, 'planted'), join(dataDir, 'planted')],
  };
}

/**
 * The server's own Node installation is bound read-only into the sandbox (agents may run
 * `node`): where it lies in the home directory (a Node of a clone's own in a private home),
 * the path down to it shows there, and nothing else of the home directory.
 */
const nodeInHome = relative(homedir(), realpathSync(process.execPath));
const homeSeen = nodeInHome.startsWith('..') || isAbsolute(nodeInHome) ? 'ENOENT' : [nodeInHome.split(sep)[0]];

function expectFilesRefused(result: Record<string, unknown>, other: string, runId: string): void {
  const denied = expect.stringMatching(/^E(ACCES|ROFS|PERM)$/);
  expect(result).toMatchObject({
    [`read ${join(dataDir, 'runs.sqlite')}`]: 'ENOENT',
    [`read ${join(dataDir, 'session-secret')}`]: 'ENOENT',
    [`read ${join(home, '.ssh/id_rsa')}`]: 'ENOENT',
    [`read ${join(workRoot, other, 'mcp.json')}`]: 'ENOENT',
    [`list ${join(workRoot, other)}`]: 'ENOENT',
    [`list ${dataDir}`]: 'ENOENT',
    [`list ${homedir()}`]: homeSeen,
    [`write ${join(workRoot, 'planted')}`]: denied,
    [`write /usr/planted`]: denied,
    [`write /etc/planted`]: denied,
    [`write ${join(workRoot, other, 'planted')}`]: 'ENOENT',
    [`write ${join(dataDir, 'planted')}`]: 'ENOENT',
    own: 'ok',
  });
  // Of the work root it sees its own directory only (and its protocol files' parent).
  expect(result[`list ${workRoot}`]).toEqual(['.agent-runs', runId].sort());
  for (const planted of [join(workRoot, 'planted'), join(workRoot, other, 'planted'), join(dataDir, 'planted')]) expect(existsSync(planted)).toBe(false);
  // A root server runs its agents as an unprivileged user.
  if (process.getuid?.() === 0) expect(result.uid).not.toBe(0);
}

describe('an agent in the sandbox', () => {
  it("cannot read the data directory, the server user's files or another run's directory, nor write outside its own, nor reach loopback under none but its own server through the proxy; its own work succeeds", async () => {
    const first = await probe({});
    // What it tries exists, and the server's user can read it.
    for (const path of [join(dataDir, 'runs.sqlite'), join(dataDir, 'session-secret'), join(home, '.ssh/id_rsa'), join(workRoot, first.runId, 'mcp.json')]) readFileSync(path);
    const serverPort = Number(new URL(t.server.url).port);
    const { runId, result } = await probe({ ...filesPlan(first.runId), connect: [['127.0.0.1', serverPort], ['127.0.0.1', port(other)], ['::1', serverPort]] });
    expectFilesRefused(result, first.runId, runId);
    expect(result).toMatchObject({
      [`connect 127.0.0.1:${serverPort}`]: 'ECONNREFUSED',
      [`connect 127.0.0.1:${port(other)}`]: 'ECONNREFUSED',
      [`connect ::1:${serverPort}`]: expect.stringMatching(/^E(CONNREFUSED|ADDRNOTAVAIL|NETUNREACH)$/),
      // Its run token is for its server: that address alone is let through, by the filtering proxy.
      proxy: 'http://127.0.0.1:3128',
    });
  });

  it('under an allow-list, fails at each of those too, and reaches the host it names and its own server through the proxy, not another loopback listener', async () => {
    const first = await probe({}, { environment_id: 'allow-list' });
    const serverPort = Number(new URL(t.server.url).port);
    const { runId, result } = await probe(
      {
        ...filesPlan(first.runId),
        connect: [['127.0.0.1', serverPort], ['127.0.0.1', port(other)], ['127.0.0.1', port(allowed)]],
        proxied: [`http://127.0.0.1:${port(allowed)}/`, `http://127.0.0.1:${serverPort}/healthz`, `http://127.0.0.1:${port(other)}/`, `http://localhost:${port(allowed)}/`],
        tunnel: [`127.0.0.1:${port(allowed)}`, `127.0.0.1:${serverPort}`, `127.0.0.1:${port(other)}`, `localhost:${serverPort}`],
      },
      { environment_id: 'allow-list' },
    );
    expectFilesRefused(result, first.runId, runId);
    expect(result).toMatchObject({
      // Directly, not even the allowed host: only through the proxy.
      [`connect 127.0.0.1:${serverPort}`]: 'ECONNREFUSED',
      [`connect 127.0.0.1:${port(other)}`]: 'ECONNREFUSED',
      [`connect 127.0.0.1:${port(allowed)}`]: 'ECONNREFUSED',
      [`proxied http://127.0.0.1:${port(allowed)}/`]: '200 allowed host',
      // The server itself answers (its Host guard refuses the proxy's address this probe sends as Host), not the proxy.
      [`proxied http://127.0.0.1:${serverPort}/healthz`]: expect.stringMatching(/^403 .*not a name this server answers to/),
      [`proxied http://127.0.0.1:${port(other)}/`]: expect.stringMatching(/^403 .*not in the allow-list/),
      [`proxied http://localhost:${port(allowed)}/`]: expect.stringMatching(/^403 /),
      [`tunnel 127.0.0.1:${port(allowed)}`]: '200',
      [`tunnel 127.0.0.1:${serverPort}`]: '200',
      [`tunnel 127.0.0.1:${port(other)}`]: '403',
      [`tunnel localhost:${serverPort}`]: '403',
    });
  });
});
