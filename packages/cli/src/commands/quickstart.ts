import { randomBytes } from 'node:crypto';
import { readDuration, type AgentRunsClient } from '@agent-runs/core';
import type { Command, CommandContext } from '../command.js';
import { EXIT, exitCodeForState } from '../exit-codes.js';
import { chooseDisplay } from '../follow/choose-display.js';
import { followOnTerminal } from '../follow/follow-on-terminal.js';
import { loadServer, type RunningServer } from '../local-server.js';
import { makeClient } from '../make-client.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { renderRunSummary } from '../render/run-details.js';
import { UsageError } from '../usage-error.js';

const DEFAULT_PROMPT = 'Say hello to a new user of agent-runs';
const DEFAULT_DURATION = '3s';
// A demo should show each change promptly: it polls faster than the 1 s to 10 s people get.
const DEMO_POLL_MS = 200;
const DEMO_MAX_POLL_MS = 500;

function nextSteps(ctx: CommandContext, port: number): string {
  const cmd = ctx.invocation;
  return [
    '',
    'Next: the same command against a real service',
    '  The public service:',
    '    export AGENT_RUNS_API_KEY=<your API key>',
    `    ${cmd} run "Fix the flaky test in ci.yml" --wait`,
    '  A self-hosted server:',
    `    ${cmd} serve --api-key <a key of 8+ characters>     # in another terminal`,
    `    ${cmd} --base-url http://127.0.0.1:${port}/api/v1 --api-key <that key> run "Fix the flaky test" --wait`,
    `  Every command: ${cmd} --help`,
    '',
  ].join('\n');
}

async function waitForCtrlC(ctx: CommandContext, server: RunningServer): Promise<void> {
  ctx.io.stderr.write(`The local server keeps running at ${server.url} (open the session link). Press Ctrl-C to stop.\n`);
  await new Promise<void>((resolve) => {
    const stop = ctx.io.onInterrupt(() => {
      stop();
      resolve();
    });
  });
}

export const quickstartCommand: Command = {
  name: 'quickstart',
  summary: 'See it work: a local server, one run followed to its end, nothing left running',
  usage: '[flags]',
  description:
    'Start a local Agent Runs API in this process (in memory, simulated agent, a free loopback port,\n' +
    'a fresh key), start one run with the CLI client, follow it to its end, print the session link and\n' +
    'the final run, then stop everything. Needs no account and no network.',
  positionals: false,
  usesApi: false,
  flags: {
    prompt: { type: 'string', value: '<text>', description: `The prompt of the demo run (default "${DEFAULT_PROMPT}")` },
    duration: {
      type: 'string',
      value: '<duration>',
      description: `How long the simulated agent works (default ${DEFAULT_DURATION})`,
    },
    keep: { type: 'boolean', description: 'Keep the local server running after the run, until Ctrl-C' },
    json: { type: 'boolean', description: 'Print only the final run, as JSON' },
  },
  examples: ['$0 quickstart', '$0 quickstart --prompt "Fix the bug [simulate fail]"', '$0 quickstart --duration 10s --keep'],
  async run(flags, ctx) {
    const { io } = ctx;
    const json = flags.bool('json');
    const durationText = flags.string('duration') ?? DEFAULT_DURATION;
    const { ms: simulatedDurationMs, problem } = readDuration(durationText);
    if (problem !== undefined) throw new UsageError(`--duration ${problem}.`, 'quickstart');
    const prompt = flags.nonEmpty('prompt') ?? DEFAULT_PROMPT;
    const say = (text: string) => {
      if (!json) io.stderr.write(`${text}\n`);
    };
    const paint = paintFor(io.stderr, io.env);

    say(paint.bold('agent-runs quickstart: a local Agent Runs API, one run, followed to its end.'));
    const { startServer, DEFAULT_CLI_PORT } = await loadServer();
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      storage: 'memory',
      executor: 'simulated',
      simulatedDurationMs,
      apiKeys: [{ key: `quickstart_${randomBytes(18).toString('base64url')}`, principal: 'quickstart' }],
      quiet: true,
    });
    let client: AgentRunsClient | undefined;
    try {
      say(`Local server: ${server.baseURL} (in memory, simulated agent, a fresh API key)`);
      client = makeClient({ baseURL: server.baseURL, apiKey: server.apiKey }, io, 'quickstart');
      const created = await client.runs.create({ prompt, title: 'Quickstart run' });
      say(`Started run ${created.run_id}: "${prompt}"`);
      const outcome = await followOnTerminal({
        client,
        runId: created.run_id,
        io,
        display: chooseDisplay(io, created.run_id, json),
        pollIntervalMs: DEMO_POLL_MS,
        maxPollIntervalMs: DEMO_MAX_POLL_MS,
        timeoutMs: simulatedDurationMs + 60_000,
      });
      if (outcome.kind === 'stopped') {
        say('\nStopped. The local server and its runs end with this command.');
        return EXIT.INTERRUPTED;
      }
      if (outcome.kind === 'timed-out') {
        say(`The run did not finish in time (last state ${outcome.error.lastRun?.state ?? 'unknown'}).`);
        return EXIT.TIMED_OUT;
      }
      const { run } = outcome;
      if (json) {
        writeJson(io.stdout, run);
      } else {
        const out = paintFor(io.stdout, io.env);
        io.stdout.write(`\n${renderRunSummary(run, out)}`);
        io.stdout.write(`\n${out.bold(`The run as the API returns it (GET /api/v1/agent/runs/${run.run_id}):`)}\n`);
        writeJson(io.stdout, run);
        say(nextSteps(ctx, DEFAULT_CLI_PORT));
      }
      if (flags.bool('keep')) await waitForCtrlC(ctx, server);
      return exitCodeForState(run.state);
    } finally {
      await client?.close();
      await server.close();
      say('Local server stopped; nothing is left running.');
    }
  },
};
