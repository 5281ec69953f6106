import { mkdtempSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentRunsClient, type RunItem } from '@agent-runs/core';
import { startServer, type RunningServer, type ServerOptions } from '@agent-runs/server';

/** The installed CLI of a harness (test/support/harness-global-setup.ts), or a clear failure. */
export function harnessCli(name: 'claude' | 'codex' | 'gemini'): string {
  const variable = `AGENT_RUNS_TEST_HARNESS_${name.toUpperCase()}`;
  const path = process.env[variable];
  if (!path) throw new Error(`${variable} is not set: the harness CLIs were not installed (node scripts/install-harnesses.mjs).`);
  return path;
}

export interface HarnessTestServer {
  server: RunningServer;
  client: AgentRunsClient;
  workDir: string;
  close(): Promise<void>;
}

/**
 * A local server whose configuration file's `harnesses:` section is `harnesses`, with the
 * server variables `env` set while it starts (the harness keys and base URLs it passes on).
 */
export async function startHarnessServer(
  harnesses: Record<string, unknown>,
  env: Record<string, string>,
  options: ServerOptions = {},
  moreConfig: Record<string, unknown> = {},
): Promise<HarnessTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-harness-test-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ harnesses, ...moreConfig }));
  const workDir = join(dir, 'work');
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let server: RunningServer;
  try {
    server = await startServer({ port: 0, storage: 'memory', quiet: true, configFile, workDir, ...options });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const client = new AgentRunsClient({ baseURL: server.baseURL, apiKey: server.apiKey });
  return { server, client, workDir, close: () => server.close() };
}

/** An environment whose working directory is a new git repository, for the changes.patch a run's agent leaves in it. */
export const GIT_REPO_ENVIRONMENT = { setup_commands: ['git init -q . && git -c user.email=t@example.com -c user.name=t commit -q --allow-empty -m start'] };

/** A run's changes.patch artifact: its description and its text, through its signed download link; undefined when the run has none. */
export async function changesPatch(client: AgentRunsClient, run: RunItem): Promise<{ description: string | undefined; text: string } | undefined> {
  const patch = run.artifacts?.find((a) => a.artifact_type === 'FILE' && (a.data as { filename?: string }).filename === 'changes.patch');
  if (!patch) return undefined;
  const data = patch.data as { artifact_uid: string; description?: string };
  const artifact = (await client.artifacts.get(data.artifact_uid)) as { data: { download_url: string } };
  return { description: data.description, text: await (await fetch(artifact.data.download_url)).text() };
}

/** Processes whose working directory is inside `dir` (the harness and anything it started, the sandbox's included). */
export function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) found.push(Number(pid));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** The first truthy value `what` gives within `timeoutMs`, asked every 50 ms. */
export async function until<T>(what: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await what();
    if (value) return value;
    await sleep(50);
  }
  throw new Error('timed out waiting');
}

/** Where a run's transcript is served (the API answers with a redirect to a signed link). */
export async function transcriptUrl(server: RunningServer, runId: string): Promise<string> {
  const res = await fetch(`${server.baseURL}/agent/runs/${runId}/transcript`, { headers: { authorization: `Bearer ${server.apiKey}` }, redirect: 'manual' });
  return new URL(res.headers.get('location')!, server.url).toString();
}

/** The blocks of one step of a run's conversation, each with its message's role. */
export async function conversationBlocks(client: AgentRunsClient, runId: string, step = 0): Promise<Record<string, unknown>[]> {
  const conversation = await client.runs.conversation(runId);
  return (conversation.steps[step]?.messages ?? []).flatMap((m) => m.content.map((block) => ({ role: m.role, ...block }) as Record<string, unknown>));
}

/** The agent's turn is in the conversation: its text, the shell command as an action, and that action's result. */
export function expectTurn(blocks: Record<string, unknown>[], command: string): void {
  const shell = blocks.find((b) => b['type'] === 'action' && String((b['input'] as { line?: unknown })['line']).includes(command));
  if (!shell) throw new Error(`No action running "${command}" in the conversation: ${JSON.stringify(blocks)}`);
  if (!blocks.some((b) => b['type'] === 'action_result' && b['action_id'] === shell['id'] && b['role'] === 'tool')) throw new Error(`No result of the shell action: ${JSON.stringify(blocks)}`);
  if (!blocks.some((b) => b['type'] === 'text' && b['role'] === 'assistant')) throw new Error(`No agent text in the conversation: ${JSON.stringify(blocks)}`);
}
