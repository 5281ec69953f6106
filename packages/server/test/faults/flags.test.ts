import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServerArgs } from '@agent-runs/server';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { rawRequest } from '../support/raw-http.js';

const BIN = fileURLToPath(new URL('../../bin/agent-runs-server.js', import.meta.url));
let proc: ServerProcess | undefined;
afterEach(async () => {
  if (proc && proc.child.exitCode === null) {
    proc.child.kill('SIGTERM');
    await proc.exited;
  }
  proc = undefined;
});

describe('serve --command', () => {
  it('runs the command: --command implies the command executor', async () => {
    proc = await startServerProcess(['--memory', '--command', 'echo from-the-agent', '--api-key', 'cmd-key-12345']);
    expect(proc.stderr()).toContain('(command executor');
    const auth = { authorization: 'Bearer cmd-key-12345' };
    const created = await rawRequest(`${proc.baseURL}/agent/run`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"prompt":"x"}' });
    await expect.poll(async () => (await rawRequest(`${proc!.baseURL}/agent/runs/${created.json.run_id}`, { headers: auth })).json.state).toBe('SUCCEEDED');
  });

  it('refuses --executor simulated with --command, naming both, without a stack trace', () => {
    const result = spawnSync(process.execPath, [BIN, '--memory', '--executor', 'simulated', '--command', 'my-agent'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--command.*--executor.*simulated/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('--api-key', () => {
  it('takes a base64 key holding = whole, and splits only name=key', () => {
    const parsed = parseServerArgs(['--api-key', 'c2VjcmV0LWtleQ==', '--api-key', 'YWJjZGVmZ2hp=', '--api-key', 'ci-bot=c2VjcmV0LWtleQ==', '--api-key', 'a+b/c=def=ghij'], {});
    expect(parsed.help === false && parsed.options.apiKeys).toEqual([
      { principal: 'key-1', key: 'c2VjcmV0LWtleQ==' },
      { principal: 'key-2', key: 'YWJjZGVmZ2hp=' },
      { principal: 'ci-bot', key: 'c2VjcmV0LWtleQ==' },
      { principal: 'key-4', key: 'a+b/c=def=ghij' },
    ]);
  });

  it('accepts the whole padded key on a real server', async () => {
    proc = await startServerProcess(['--memory', '--api-key', 'c2VjcmV0LWtleQ==']);
    const res = await rawRequest(`${proc.baseURL}/agent/runs`, { headers: { authorization: 'Bearer c2VjcmV0LWtleQ==' } });
    expect(res.status).toBe(200);
  });
});
