/**
 * What opening a pull request adds to a run's end: the same command agent editing the same
 * checkout, on a server whose repository takes pull requests (a push to a bare remote on disk,
 * then octokit against a scripted GitHub API on loopback) beside one whose repository does
 * not, in one run. Each run's time is its server's own, created to ended (target: the pull
 * request adds ≤ 2 s, p50 and p99).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { BENCH_KEY as KEY, fmt, percentile } from './server-load.js';
import { EDITING_AGENT } from '../packages/server/test/support/editing-agent.js';
import { bareRemote } from '../packages/server/test/support/git-remote.js';
import { scriptedGithub } from '../packages/server/test/support/scripted-github.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_PR_RUNS ?? 15);
const TOKEN = 'ghp_benchPushToken0123456789abcdef';

type Server = typeof import('../packages/server/src/index.js');
type Core = typeof import('../packages/core/src/index.js');

export default async function pullRequestsBench(): Promise<BenchRow[]> {
  const { startServer } = (await import(pathToFileURL(join(root, 'packages/server/dist/index.js')).href)) as Server;
  const { AgentRunsClient } = (await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href)) as Core;
  const dir = mkdtempSync(join(tmpdir(), 'bench-prs-'));
  const github = await scriptedGithub(TOKEN, { status: 201, number: 1 });
  writeFileSync(join(dir, 'token'), TOKEN);
  const server = (name: string, pullRequests: unknown) => {
    const configFile = join(dir, `${name}.json`);
    const repo = { url: bareRemote(), path: 'web', ...(pullRequests ? { pull_requests: pullRequests } : {}) };
    writeFileSync(configFile, JSON.stringify({ secrets: { GH_TOKEN: { from_file: join(dir, 'token') } }, environments: { web: { repos: [repo] } } }));
    return startServer({ storage: 'memory', apiKeys: [{ key: KEY, principal: 'bench' }], quiet: true, executor: 'command', command: EDITING_AGENT, workDir: join(dir, name), configFile });
  };
  const off = await server('off', undefined);
  const on = await server('on', { mode: 'ready', credential: 'GH_TOKEN', api_url: github.url });
  try {
    const timeRuns = async (baseURL: string): Promise<number[]> => {
      const client = new AgentRunsClient({ baseURL, apiKey: KEY, maxRetries: 0 });
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { run_id } = await client.runs.create({ prompt: `write line ${i}`, config: { environment_id: 'web' } });
        const run = await client.runs.wait(run_id, { timeout: 60_000 });
        if (run.state !== 'SUCCEEDED') throw new Error(`bench run ${run_id} ended ${run.state}: ${run.status_message?.message}`);
        ms.push(Date.parse(run.updated_at) - Date.parse(run.created_at));
      }
      await client.close();
      return ms;
    };
    // Interleaved halves, so load from elsewhere on the machine falls on both alike.
    const plain = [...(await timeRuns(off.baseURL))];
    const withPr = [...(await timeRuns(on.baseURL))];
    plain.push(...(await timeRuns(off.baseURL)));
    withPr.push(...(await timeRuns(on.baseURL)));
    const opened = github.seen.filter((r) => r.path.endsWith('/pulls')).length;
    if (opened !== withPr.length) throw new Error(`expected ${withPr.length} pull requests, GitHub saw ${opened}`);
    const row = (p: number): BenchRow => {
      const added = percentile(withPr, p) - percentile(plain, p);
      return {
        suite: 'server',
        measure: `run end with a pull request opened, p${p} (${withPr.length} runs)`,
        value: `${fmt(percentile(withPr, p))} ms`,
        baseline: `${fmt(percentile(plain, p))} ms (pull_requests off)`,
        ratio: `+${fmt(added)} ms`,
        target: '<= +2000 ms',
        met: added <= 2000,
      };
    };
    return [row(50), row(99)];
  } finally {
    await off.close();
    await on.close();
    await github.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
