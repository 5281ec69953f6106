import { APIUserAbortError, isTerminalState, visibleText } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT, exitCodeForState } from '../exit-codes.js';
import { runIdArgument } from './run-id-argument.js';

// Output comes as typed, line breaks kept; anything a terminal would act on is shown escaped.
const safe = (text: string) => visibleText(text, { multiline: true });

export const logsCommand: Command = {
  name: 'logs',
  summary: "Print a run's agent output",
  usage: '<run-id> [flags]',
  description:
    "Print the agent's output kept for a run (stdout and stderr, in order). With --follow, keep\n" +
    'printing it as it comes until the run ends, then exit with its outcome (as wait does).\n' +
    'Terminal escape sequences in the output are shown escaped, never acted on.',
  positionals: true,
  usesApi: true,
  flags: {
    follow: { type: 'boolean', short: 'f', description: 'Keep printing new output until the run ends' },
  },
  examples: ['$0 logs 6f1c2a9e-…', '$0 logs 6f1c2a9e-… --follow', '$0 logs 6f1c2a9e-… | grep -i error'],
  async run(flags, ctx) {
    const runId = runIdArgument(flags);
    const client = ctx.client();
    const { io } = ctx;
    if (!flags.bool('follow')) {
      const output = await client.runs.output(runId);
      if (output.dropped) io.stderr.write(`(${output.dropped.bytes} bytes of earlier output were dropped by the server's bound)\n`);
      io.stdout.write(safe(output.text));
      return EXIT.OK;
    }
    const controller = new AbortController();
    const stopListening = io.onInterrupt(() => controller.abort());
    let endsWithNewline = true;
    let told = false;
    try {
      for await (const event of client.runs.events(runId, { signal: controller.signal })) {
        if (event.type === 'output') {
          io.stdout.write(safe(event.data.text));
          endsWithNewline = event.data.text.endsWith('\n');
        } else if (event.type === 'skipped') {
          io.stderr.write(`${visibleText(event.data.message)}\n`);
        } else if (client.runs.hasEventStream === false && !told) {
          told = true;
          io.stderr.write('This server does not stream output; following the run state only.\n');
        }
        if (event.type === 'run' && isTerminalState(event.data.state)) {
          if (!endsWithNewline) io.stdout.write('\n');
          io.stderr.write(`run ${visibleText(runId)}: ${visibleText(event.data.state)}\n`);
          return exitCodeForState(event.data.state);
        }
      }
      return EXIT.OK;
    } catch (error) {
      if (error instanceof APIUserAbortError && controller.signal.aborted) return EXIT.INTERRUPTED;
      throw error;
    } finally {
      stopListening();
    }
  },
};
