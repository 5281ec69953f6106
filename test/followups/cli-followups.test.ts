import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/cli/test/support/cli-process.js';
import { FILE_BYTES, startAgentServer } from './followup-agent-server.js';

let t: Awaited<ReturnType<typeof startAgentServer>>;
let runId: string;
const out = mkdtempSync(join(tmpdir(), 'agent-runs-cli-download-'));
beforeAll(async () => {
  t = await startAgentServer();
  runId = (await t.client.runs.createAndWait({ prompt: 'Fix the parser' }, { pollInterval: 20 })).run_id;
});
afterAll(async () => {
  await t?.close();
  rmSync(out, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, { env: t.env });

describe('follow-ups and artifacts on the command line, with a command agent', () => {
  it('lists a run’s pull request and file', async () => {
    const result = await cli('artifacts', runId);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^TYPE\s+NAME\s+UID OR URL\s+SIZE/);
    expect(result.stdout).toMatch(/PULL_REQUEST\s+agent\/fix-parser\s+https:\/\/github.com\/acme\/app\/pull\/42/);
    expect(result.stdout).toMatch(new RegExp(`FILE\\s+report.bin\\s+\\S+\\s+${FILE_BYTES.length} B`));
  });

  it('downloads the file’s exact bytes by run id, never overwriting', async () => {
    const first = await cli('download', runId, '--out', out);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Saved ${join(out, 'report.bin')}`);
    expect(readFileSync(join(out, 'report.bin'))).toEqual(FILE_BYTES);
    // The uid from the client in this process: one command-line start fewer on a busy machine ("artifacts" has its own test).
    const uid = ((await t.client.runs.get(runId)).artifacts as { artifact_type: string; data: { artifact_uid?: string } }[]).find((a) => a.artifact_type === 'FILE')!.data.artifact_uid!;
    const second = await cli('download', uid, '--out', out, '--json');
    expect(JSON.parse(second.stdout)).toEqual([{ artifact_uid: uid, path: join(out, 'report (2).bin'), bytes: FILE_BYTES.length }]);
    expect(readdirSync(out).sort()).toEqual(['report (2).bin', 'report.bin']);
  });

  it('follows up with --wait: the run runs again and the conversation holds both messages', async () => {
    const result = await cli('followup', runId, 'Now add a test', '--wait', '--poll-interval', '50ms');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Follow-up sent');
    // Only the execution the follow-up started: the first one's states and output are not shown again.
    expect(result.stdout + result.stderr).toContain('working on execution 2');
    expect(result.stdout + result.stderr).not.toContain('working on execution 1');
    expect(result.stderr.match(/INPROGRESS/g)).toHaveLength(1);
    const conversation = await cli('conversation', runId);
    expect(conversation.code).toBe(0);
    expect(conversation.stdout).toContain('user: Fix the parser');
    expect(conversation.stdout).toContain('user: Now add a test');
    expect(conversation.stdout).toContain('assistant: execution 2 opened a pull request');
  });

  it('follows up with --wait --quiet: the new execution’s states, no agent output', async () => {
    const result = await cli('followup', runId, 'And a changelog entry', '--wait', '--quiet', '--poll-interval', '50ms');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('INPROGRESS');
    expect(result.stdout + result.stderr).not.toContain('working on execution');
  });

  it('refuses an empty message, a missing one and a bad mode with clear errors', async () => {
    const empty = await cli('followup', runId, '   ');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('message: is required');
    const missing = await cli('followup', runId);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing <message>');
    const mode = await cli('followup', runId, 'x', '--mode', 'fast');
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('--mode must be one of normal, plan, orchestrate');
  });

  it('names an unknown run for followup and download', async () => {
    const unknown = await cli('followup', 'no-such-run', 'hello');
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/no-such-run/);
    const download = await cli('download', 'no-such-thing', '--out', out);
    expect(download.code).toBe(4);
  });
});

describe('plans and screenshots on the command line', () => {
  it('prints a plan’s text with --plan and in --json, and saves a screenshot under the name it is listed by', async () => {
    const sim = await startAgentServer({ executor: 'simulated', simulatedDurationMs: 10 });
    try {
      const run = await sim.client.runs.createAndWait({ prompt: 'Plan it [simulate artifact plan screenshot]' }, { pollInterval: 20 });
      const simCli = (...args: string[]) => runCli(args, { env: sim.env });
      const table = await simCli('artifacts', run.run_id);
      expect(table.stdout).toMatch(/PLAN\s+Simulated plan/);
      expect(table.stdout).toMatch(/SCREENSHOT\s+screenshot\.png/);
      expect(table.stderr).toContain(`artifacts ${run.run_id} --plan`);

      const plan = await simCli('artifacts', run.run_id, '--plan');
      expect(plan.code).toBe(0);
      expect(plan.stdout).toBe('# Simulated plan\n\n1. Read the code.\n2. Change it.\n');

      const json = JSON.parse((await simCli('artifacts', run.run_id, '--json')).stdout) as { artifact_type: string; data: { content?: string } }[];
      expect(json.find((a) => a.artifact_type === 'PLAN')!.data.content).toContain('1. Read the code.');

      const dir = join(out, 'shots');
      const saved = await simCli('download', run.run_id, '--out', dir);
      expect(saved.code).toBe(0);
      expect(readdirSync(dir)).toEqual(['screenshot.png']);
    } finally {
      await sim.close();
    }
  });
});

describe('download to a place that cannot take it', () => {
  it('refuses an --out that is a file as a usage error naming the flag, before fetching anything', async () => {
    const file = join(out, 'not-a-folder.txt');
    writeFileSync(file, 'x');
    const result = await cli('download', runId, '--out', file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--out ${file} is a file; --out takes the folder to save into`);
    expect(result.stderr).not.toMatch(/EEXIST|unexpected/);
  });
});

describe('download progress', () => {
  it('draws a progress bar on a terminal for a file over 1 MiB, and clears it', async () => {
    const { startServer } = await import('@agent-runs/server');
    const { main } = await import('@agent-runs/cli');
    const { AgentRunsClient } = await import('@agent-runs/core');
    const big = await startServer({
      port: 0,
      storage: 'memory',
      command: `head -c 3145728 /dev/zero > "$AGENT_RUNS_ARTIFACTS_DIR/big.bin"`,
      workDir: join(out, 'big-work'),
      apiKeys: [{ key: 'big-test-key-0123456789', principal: 'tester' }],
      quiet: true,
    });
    try {
      const env = { AGENT_RUNS_API_KEY: 'big-test-key-0123456789', TERM: 'xterm' };
      let stderr = '';
      const io = {
        stdout: { write: () => true },
        stderr: { write: (text: string) => (stderr += text), isTTY: true, columns: 100 },
        env,
        onInterrupt: () => () => {},
      };
      const client = new AgentRunsClient({ baseURL: big.baseURL, apiKey: env.AGENT_RUNS_API_KEY, maxRetries: 0 });
      const runId = (await client.runs.createAndWait({ prompt: 'Make a big file' }, { pollInterval: 20 })).run_id;
      await client.close();
      expect(await main(['--base-url', big.baseURL, 'download', runId, '--out', join(out, 'big')], { io })).toBe(0);
      expect(readFileSync(join(out, 'big', 'big.bin')).length).toBe(3145728);
      expect(stderr).toMatch(/big\.bin \[#+\.*\] \d+% /);
      expect(stderr).toContain('100% 3.0 MiB of 3.0 MiB');
      expect(stderr.endsWith('\r\x1b[2K')).toBe(true);
    } finally {
      await big.close();
    }
  });
});
