import type { Command } from '../command.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { onStopSignals, startError } from '../local-process.js';
import { loadServer } from '../local-server.js';

const EXAMPLES = [
  'AGENT_RUNS_WORKER_TOKEN=… $0 worker --server https://runs.example --worker-host gpu-box-1',
  "$0 worker --server https://runs.example --worker-host ci-1 --token-file /etc/agent-runs/worker-token --command 'my-agent --yes' --concurrency 4",
];

/**
 * `agent-runs worker` is `agent-runs-worker`: the same flags and variables, read by the
 * server package's parser, loaded only when this command runs.
 */
export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run agents on this machine for an Agent Runs server (a self-hosted worker)',
  usage: '[flags]',
  positionals: false,
  usesApi: false,
  flags: {},
  examples: EXAMPLES,
  async help(invocation) {
    const { WORKER_HELP } = await loadServer();
    const body = WORKER_HELP.replace(/^agent-runs-worker: /, '').replace(/Usage: agent-runs-worker/, `Usage: ${invocation} worker`);
    return [body.trimEnd(), '', 'Examples:', ...EXAMPLES.map((example) => `  ${example.replaceAll('$0', invocation)}`), '', EXIT_CODES_HELP, ''].join('\n');
  },
  async runWithArgs(argv, ctx) {
    const { parseWorkerArgs, startWorker, ServerConfigError } = await loadServer();
    const { io } = ctx;
    let worker;
    try {
      const parsed = parseWorkerArgs(argv, io.env);
      if (parsed.help) throw new Error('unreachable: --help is handled before');
      // The worker strips control characters from its lines itself.
      worker = await startWorker(parsed.options, (line) => io.stderr.write(`${line}\n`));
    } catch (error) {
      throw startError(error, 'worker', (e) => e instanceof ServerConfigError, {
        name: '--listen',
        address: '--listen',
        nameFix: 'Give --listen an address of this machine, such as 127.0.0.1:9464.',
        addressFix: 'pick another address or port.',
      });
    }
    // The first signal drains (no new run; the held ones finish within --drain-timeout); a second stops them now.
    let signals = 0;
    const stop = onStopSignals(ctx, () => {
      if (++signals === 1) worker.drain();
      else worker.stopNow();
    });
    try {
      await worker.done;
    } finally {
      stop();
    }
    return EXIT.OK;
  },
  async run() {
    throw new Error('worker reads its own arguments');
  },
};
