import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerProcess, type WorkerProcess } from '../../packages/server/test/support/worker-process.js';
import { DEFAULT_SCRIPT, startAnthropicServer, type ScriptedModelServer } from '../support/model-servers/anthropic-messages-server.js';
import { harnessCli, startHarnessServer, type HarnessTestServer } from './harness-test-server.js';

/**
 * Claude Code on a self-hosted worker: the server (in this process) holds no harness key;
 * the worker process has the key and the model's URL in its own configuration and
 * environment, and runs the real CLI in its bubblewrap sandbox. The scripted model has the
 * agent write hello.txt and run `probe.sh`, the run's attachment, with its Bash tool.
 */
const KEY = 'sk-ant-worker-test-0123456789';
const TOKEN = 'claude-worker-token-5b0e1d7f';
const claude = { type: 'claude', model_id: 'claude-sonnet-4-5' } as const;
const isRoot = process.getuid?.() === 0;
const root = mkdtempSync(join(tmpdir(), 'agent-runs-claude-worker-'));
// The agent user (nobody, under root) walks through to its run's directory.
chmodSync(root, 0o711);
const workDir = join(root, 'work');
const tokenFile = join(root, 'worker-token');

let model: ScriptedModelServer;
let t: HarnessTestServer;
let worker: WorkerProcess;
beforeAll(async () => {
  model = await startAnthropicServer({ ...DEFAULT_SCRIPT, command: 'sh "$AGENT_RUNS_ATTACHMENTS_DIR/probe.sh" > probe.txt 2>&1; cat probe.txt' });
  t = await startHarnessServer({}, { CLAUDE_WORKER_TOKEN: TOKEN }, {}, { workers: { gpu: { token: { from_env: 'CLAUDE_WORKER_TOKEN' }, worker_hosts: ['gpu-box'] } } });
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  const config = join(root, 'worker.json');
  writeFileSync(config, JSON.stringify({ harnesses: { claude: { command: harnessCli('claude'), env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] } } }));
  const { AGENT_RUNS_WORKER_TOKEN: _unused, ...env } = process.env;
  worker = await startWorkerProcess(
    ['--server', t.server.url, '--worker-host', 'gpu-box', '--config', config, '--token-file', tokenFile, '--sandbox', 'on', '--work-dir', workDir],
    TOKEN,
    { ...env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url },
  );
}, 60_000);
afterAll(async () => {
  if (worker && worker.child.exitCode === null) {
    worker.child.kill('SIGKILL');
    await worker.exited;
  }
  await t?.close();
  await model?.close();
});

describe('Claude Code on a worker', () => {
  it('runs there in the sandbox with the worker\'s own key: its file and output reach the server, the worker token stays out of its reach', async () => {
    const probe = [
      'echo "uid=$(id -u)"',
      `cat ${tokenFile} >/dev/null 2>&1 && echo read-token=yes || echo read-token=no`,
      // Readable by anyone outside the sandbox: inside it, the worker's files are not there at all.
      `test -e ${join(root, 'worker.json')} && echo see-config=yes || echo see-config=no`,
      'echo probe-done',
    ].join('\n');
    const created = await t.client.runs.create({
      prompt: 'Write hello.txt, then run the command.',
      config: { harness: claude, worker_host: 'gpu-box' },
      attachments: [{ file_name: 'probe.sh', mime_type: 'text/x-sh', data: Buffer.from(probe).toString('base64') }],
    });
    const run = await t.client.runs.wait(created.run_id, { timeout: 90_000 });
    expect(run.state, JSON.stringify(run.status_message)).toBe('SUCCEEDED');
    expect(worker.stderr()).toContain(`Run ${run.run_id}: taken`);
    // The agent worked in the worker's directory, not the server's.
    expect(readFileSync(join(workDir, run.run_id, 'hello.txt'), 'utf8')).toBe(DEFAULT_SCRIPT.content);
    const printed = readFileSync(join(workDir, run.run_id, 'probe.txt'), 'utf8');
    expect(printed).toContain('probe-done');
    expect(printed).toContain('read-token=no');
    expect(printed).toContain('see-config=no');
    expect(worker.stderr()).toContain('Sandbox on (bubblewrap');
    if (isRoot) expect(printed).toMatch(/^uid=(?!0\n)\d+$/m);
    // The key went from the worker's environment to the model; the server never had it.
    expect(model.agentTurns().length).toBeGreaterThan(0);
    expect(model.agentTurns().every((turn) => turn.apiKey === KEY)).toBe(true);
    expect(process.env['ANTHROPIC_API_KEY']).toBeUndefined();
    // Its output, usage and harness session came back to the server.
    const output = await (await fetch(`${t.server.baseURL}/agent/runs/${run.run_id}/output`, { headers: { authorization: `Bearer ${t.server.apiKey}` } })).text();
    expect(output).toContain('probe-done');
    expect(run.request_usage?.inference_cost_usd).toBeGreaterThan(0);
  }, 120_000);
});
