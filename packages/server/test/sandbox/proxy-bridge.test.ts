import { chownSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAgent } from '../../src/executors/agent-spawn.js';
import { chooseSandbox } from '../../src/executors/sandbox/choose-sandbox.js';

// Sends 2 MB through its proxy and says how much came back, then ends as told.
const AGENT = `
const http = require('node:http');
const proxy = new URL(process.env.HTTP_PROXY);
const body = Buffer.alloc(2 * 1024 * 1024, 'a');
const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'POST', path: process.argv[1], headers: { 'content-length': body.length } }, (res) => {
  let got = 0;
  res.on('data', (d) => (got += d.length)).on('end', () => { console.log('echoed ' + got); process.exit(Number(process.argv[2])); });
});
req.on('error', (e) => { console.log('error ' + e.code); process.exit(1); });
req.end(body);`;

let echo: Server;
beforeAll(async () => {
  echo = createServer((req, res) => req.pipe(res)).listen(0, '127.0.0.1');
  await new Promise((resolve) => echo.once('listening', resolve));
});
afterAll(() => echo?.close());

describe("the bridge to the allow-list's proxy inside the sandbox", () => {
  it('relays a large request both ways, starts the agent with its stdio and passes on its exit code', async () => {
    const target = `127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const sandbox = chooseSandbox({ mode: 'on', network: { kind: 'allow', hosts: [target] } });
    const cwd = mkdtempSync(join(tmpdir(), 'agent-runs-bridge-'));
    if (sandbox.user) chownSync(cwd, sandbox.user.uid, sandbox.user.gid);
    const child = spawnAgent({ command: process.execPath, args: ['-e', AGENT, `http://${target}/`, '7'], cwd, env: { PATH: '/usr/bin:/bin' }, sandbox });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(out).toBe(`echoed ${2 * 1024 * 1024}\n`);
    expect(code).toBe(7);
  });
});
