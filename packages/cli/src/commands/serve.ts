import { visibleText } from '@agent-runs/core';
import type { Command, CommandContext } from '../command.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { onStopSignals, startError, type StopSignal } from '../local-process.js';
import { loadServer } from '../local-server.js';

/** Resolves on the first Ctrl-C or SIGTERM. */
function untilStopped(ctx: CommandContext): Promise<StopSignal> {
  return new Promise((resolve) => {
    const stop = onStopSignals(ctx, (signal) => {
      stop();
      resolve(signal);
    });
  });
}

const EXAMPLES = [
  '$0 serve',
  '$0 serve --port 8080 --api-key alice=a-long-secret-key',
  '$0 serve --memory --simulated-duration 1s --no-auth',
  "$0 serve --executor command --command 'my-agent --yes' --concurrency 4   # the prompt arrives on stdin",
];

/**
 * `agent-runs serve` is the server's own command line: the same flags and environment
 * variables as `agent-runs-server`, read by the server package's parser.
 */
/** The key in the "Try it" line: where the generated key is kept, the key itself when it lives only in memory, or the one given. */
function tryItKey(server: { apiKey: string; apiKeyFile: string | undefined }, configured: number): string {
  if (configured > 0) return configured > 1 ? '<one of your --api-key keys>' : '<your --api-key key>';
  return server.apiKeyFile ? `"$(cat ${shellQuoted(server.apiKeyFile)})"` : server.apiKey;
}

/** A path as one shell word inside $(…): quoted when it holds anything but safe characters. */
const shellQuoted = (path: string) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`);

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the Agent Runs API locally (SQLite, simulated or command agent)',
  usage: '[flags]',
  positionals: false,
  usesApi: false,
  flags: {},
  examples: EXAMPLES,
  async help(invocation) {
    const { SERVER_HELP } = await loadServer();
    const body = SERVER_HELP.replace(/^agent-runs-server: /, '').replace(
      /Usage: agent-runs-server/,
      `Usage: ${invocation} serve`,
    );
    return [
      body.trimEnd(),
      '',
      `Point the command at it: ${invocation} --base-url http://127.0.0.1:<port>/api/v1 --api-key <key> list`,
      '',
      'Examples:',
      ...EXAMPLES.map((example) => `  ${example.replaceAll('$0', invocation)}`),
      '',
      EXIT_CODES_HELP,
      '',
    ].join('\n');
  },
  async runWithArgs(argv, ctx) {
    const { parseServerArgs, startServer, ServerConfigError } = await loadServer();
    const { io } = ctx;
    const isConfigError = (error: unknown) => error instanceof ServerConfigError;
    let options;
    try {
      const parsed = parseServerArgs(argv, io.env);
      if (parsed.help) throw new Error('unreachable: --help is handled before');
      options = parsed.options;
    } catch (error) {
      throw startError(error, 'serve', isConfigError);
    }
    let server;
    try {
      // A log line can quote a request's path, which anyone who reaches the port chooses.
      server = await startServer({ ...options, log: (line) => io.stderr.write(`${visibleText(line, { multiline: true })}\n`) });
    } catch (error) {
      throw startError(error, 'serve', isConfigError, {
        name: `--host ${options.host}`,
        address: `${options.host ?? '127.0.0.1'}:${options.port}`,
        nameFix: 'Pass an address of this machine, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).',
        addressFix: 'pick another --port (0 picks a free one) or --host.',
      });
    }
    if (!options.quiet) {
      const key = options.noAuth ? '' : ` --api-key ${tryItKey(server, options.apiKeys?.length ?? 0)}`;
      io.stderr.write(`Try it: ${ctx.invocation} --base-url ${server.baseURL}${key} run "Hello" --wait\nPress Ctrl-C to stop.\n`);
    }
    const signal = await untilStopped(ctx);
    if (!options.quiet) io.stderr.write(`${signal}: stopping; runs in flight are marked as failed...\n`);
    await server.close();
    return EXIT.OK;
  },
  async run() {
    throw new Error('serve reads its own arguments');
  },
};
