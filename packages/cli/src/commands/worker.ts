import type { Command, CommandContext } from '../command.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { loadServer } from '../local-server.js';
import { UsageError } from '../usage-error.js';

const EXAMPLES = [
  'AGENT_RUNS_WORKER_TOKEN=… $0 worker --server https://runs.example --worker-host gpu-box-1',
  "$0 worker --server https://runs.example --worker-host ci-1 --token-file /etc/agent-runs/worker-token --command 'my-agent --yes' --concurrency 4",
];

/** Calls `onSignal` on each Ctrl-C or SIGTERM until the returned function is called. */
function onSignals(ctx: CommandContext, onSignal: () => void): () => void {
  let stopInterrupt = ctx.io.onInterrupt(onInterrupt);
  function onInterrupt() {
    onSignal();
    // The io's handler fires once: listen again, so a second Ctrl-C stops the runs now.
    stopInterrupt = ctx.io.onInterrupt(onInterrupt);
  }
  process.on('SIGTERM', onSignal);
  return () => {
    stopInterrupt();
    process.removeListener('SIGTERM', onSignal);
  };
}

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
      if (error instanceof ServerConfigError) throw new UsageError(error.message, 'worker');
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`Cannot listen on --listen (${code}): pick another address or port.`, 'worker');
      throw error;
    }
    // The first signal drains (no new run; the held ones finish within --drain-timeout); a second stops them now.
    let signals = 0;
    const stop = onSignals(ctx, () => {
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
