import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { agentScript } from '../support/agent-group.js';
import { eventually } from '../support/eventually.js';
import { rawRequest } from '../support/raw-http.js';

// The agent prints its environment and tries the data directory by relative paths.
const NOSY_AGENT = `env
cat ../../api-key ../../runs.sqlite ../api-key ../runs.sqlite 2>/dev/null | head -c 200
pwd > where
`;
const SECRETS = { GITHUB_TOKEN: 'ghp_server_secret_value', AGENT_RUNS_API_KEY: 'arl_client_secret_value', CLOUD_PASSWORD: 'hunter2-secret' };

let proc: ServerProcess;
let dataDir: string;
let key: string;
const auth = () => ({ authorization: `Bearer ${key}` });
let run: any;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'agent-runs-data-'));
  const { command } = agentScript(NOSY_AGENT);
  // Bare (--sandbox off): the variables alone keep these secrets from it.
  proc = await startServerProcess(['--data-dir', dataDir, '--executor', 'command', '--command', command, '--agent-env', 'PASSED_ON_PURPOSE', '--sandbox', 'off'], {
    ...process.env,
    ...SECRETS,
    PASSED_ON_PURPOSE: 'yes-please',
    LC_ALL: 'C',
    HOME: tmpdir(),
  });
  key = /\s(arl_[\w-]+)/.exec(proc.stderr())![1]!;
  const created = await rawRequest(`${proc.baseURL}/agent/run`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: '{"prompt":"show me"}' });
  const id = created.json.run_id as string;
  run = await eventually(async () => (await rawRequest(`${proc.baseURL}/agent/runs/${id}`, { headers: auth() })).json, (r) => r.state === 'SUCCEEDED');
  await eventually(async () => (await rawRequest(run.session_link)).text, (text) => text.includes('PASSED_ON_PURPOSE'));
});
afterAll(async () => {
  proc.child.kill('SIGTERM');
  await proc.exited;
});

describe('the agent does not get the server\'s secrets', () => {
  it('gets an allow-listed environment plus --agent-env names and its own variables, nothing else', async () => {
    const page = (await rawRequest(run.session_link)).text;
    for (const value of Object.values(SECRETS)) expect(page).not.toContain(value);
    expect(page).not.toContain(key);
    expect(page).toMatch(/(^|>)PATH=/m);
    expect(page).toMatch(/(^|>)HOME=/m);
    expect(page).toContain('LC_ALL=C');
    expect(page).toContain('PASSED_ON_PURPOSE=yes-please');
    expect(page).toContain(`AGENT_RUNS_RUN_ID=${run.run_id}`);
  });

  it('works, by default, where the key file and database cannot be reached by a relative path', async () => {
    const page = (await rawRequest(run.session_link)).text;
    expect(page).not.toContain('SQLite format');
    const workDir = /^AGENT_RUNS_WORK_DIR=(.+)$/m.exec(page)![1]!;
    expect(relative(dataDir, workDir).startsWith('..')).toBe(true);
    for (const up of ['..', '../..', '../../..']) {
      expect(existsSync(resolve(workDir, up, 'api-key'))).toBe(false);
      expect(existsSync(resolve(workDir, up, 'runs.sqlite'))).toBe(false);
    }
    expect(readFileSync(join(dataDir, 'api-key'), 'utf8').trim()).toBe(key);
  });
});

describe('the session page', () => {
  it('shows nothing of the run without the token of its link', async () => {
    const bare = run.session_link.replace(/\?.*$/, '');
    for (const url of [bare, `${bare}?token=`, `${bare}?token=${'A'.repeat(43)}`]) {
      const res = await rawRequest(url);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain('show me');
      expect(res.text).not.toContain('PATH=');
    }
  });

  it('opens with the link as the API returns it, or with the API key', async () => {
    expect((await rawRequest(run.session_link)).status).toBe(200);
    const bare = run.session_link.replace(/\?.*$/, '');
    const withKey = await rawRequest(bare, { headers: auth() });
    expect(withKey.status).toBe(200);
    expect(withKey.text).toContain('show me');
  });
});
