import { DURATION_HINT, parseDuration } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { isServerConfigError, startLocalServer, type ServerOptions } from '../local-server.js';
import { writeJson } from '../render/json-output.js';
import { UsageError } from '../usage-error.js';

function integerFlag(flags: ParsedFlags, name: string, min: number, max: number): number | undefined {
  const text = flags.string(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${text}".`, flags.command);
  }
  return value;
}

function durationFlag(flags: ParsedFlags, name: string): number | undefined {
  const text = flags.string(name);
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--${name} must be ${DURATION_HINT}, got "${text}".`, flags.command);
  return ms;
}

/** `--api-key KEY` or `--api-key principal=KEY`, repeatable. */
function apiKeysFlag(flags: ParsedFlags): ServerOptions['apiKeys'] {
  const keys = flags.list('api-key').map((entry) => {
    const at = entry.indexOf('=');
    return at > 0 ? { principal: entry.slice(0, at), key: entry.slice(at + 1) } : { principal: 'local', key: entry };
  });
  return keys.length > 0 ? keys : undefined;
}

function choice<T extends string>(flags: ParsedFlags, name: string, allowed: readonly T[]): T | undefined {
  const value = flags.string(name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}".`, flags.command);
  }
  return value as T;
}

/** The server options the flags describe; checked again by the server itself. */
export function serverOptionsFromFlags(flags: ParsedFlags): ServerOptions {
  const options: ServerOptions = {};
  const assign = <K extends keyof ServerOptions>(key: K, value: ServerOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  assign('port', integerFlag(flags, 'port', 0, 65535) ?? 8080);
  assign('host', flags.nonEmpty('host'));
  assign('storage', choice(flags, 'storage', ['file', 'memory'] as const));
  assign('dataDir', flags.nonEmpty('data-dir'));
  assign('apiKeys', apiKeysFlag(flags));
  if (flags.bool('no-auth')) options.noAuth = true;
  assign('executor', choice(flags, 'executor', ['simulated', 'command'] as const));
  assign('command', flags.nonEmpty('command'));
  if (options.command !== undefined && options.executor === undefined) options.executor = 'command';
  assign('commandTimeoutMs', durationFlag(flags, 'command-timeout'));
  assign('workDir', flags.nonEmpty('work-dir'));
  assign('concurrency', integerFlag(flags, 'concurrency', 1, 1000));
  assign('simulatedDurationMs', durationFlag(flags, 'simulated-duration'));
  assign('maxBodyBytes', integerFlag(flags, 'max-body-bytes', 1, Number.MAX_SAFE_INTEGER));
  assign('publicUrl', flags.nonEmpty('public-url'));
  if (flags.bool('quiet')) options.quiet = true;
  return options;
}

/** Resolves on the first Ctrl-C or SIGTERM. */
function untilStopped(onInterrupt: (handler: () => void) => () => void): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      stopInterrupt();
      process.removeListener('SIGTERM', stop);
      resolve();
    };
    const stopInterrupt = onInterrupt(stop);
    process.once('SIGTERM', stop);
  });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the Agent Runs API locally (SQLite, simulated or command agent)',
  usage: '[flags]',
  description:
    'Start the local Agent Runs API and keep it running until Ctrl-C. Point any client at it with\n' +
    '--base-url http://<host>:<port>/api/v1 and one of its keys. Without --api-key it generates a key\n' +
    '(kept in the data directory) and prints it once.',
  positionals: false,
  usesApi: false,
  flags: {
    port: { type: 'string', short: 'p', value: '<port>', description: 'Port to listen on; 0 picks a free one (default 8080)' },
    host: { type: 'string', value: '<address>', description: 'Address to bind (default 127.0.0.1)' },
    storage: { type: 'string', value: '<file|memory>', description: 'Keep runs in a SQLite file (default) or in memory only' },
    'data-dir': { type: 'string', value: '<dir>', description: 'Directory of the database and generated key (default ~/.agent-runs/server)' },
    'api-key': {
      type: 'string',
      multiple: true,
      value: '<[who=]key>',
      description: 'A key the server accepts (8+ characters), optionally naming who holds it; repeatable',
    },
    'no-auth': { type: 'boolean', description: 'Accept requests without a key (loopback hosts only)' },
    executor: { type: 'string', value: '<simulated|command>', description: 'Who does the work (default simulated)' },
    command: { type: 'string', value: '<command line>', description: 'The agent command for each run (implies --executor command)' },
    'command-timeout': { type: 'string', value: '<duration>', description: 'End a command run that takes longer (default 30m)' },
    'work-dir': { type: 'string', value: '<dir>', description: 'Where command runs get their working directories' },
    concurrency: { type: 'string', value: '<n>', description: 'Runs executed at once; the rest queue (default 2)' },
    'simulated-duration': {
      type: 'string',
      value: '<duration>',
      description: 'How long a simulated run takes unless its prompt says [simulate 2s] (default 3s)',
    },
    'max-body-bytes': { type: 'string', value: '<n>', description: 'Largest request body accepted (default 1048576)' },
    'public-url': { type: 'string', value: '<url>', description: 'Address used in session links behind a proxy' },
    quiet: { type: 'boolean', description: 'Print nothing but errors' },
    json: { type: 'boolean', description: 'Print {"url", "baseURL"} as JSON on stdout once listening' },
  },
  examples: [
    '$0 serve',
    '$0 serve --port 8080 --api-key "$AGENT_RUNS_API_KEY"',
    '$0 serve --storage memory --simulated-duration 1s --no-auth',
    `$0 serve --command 'my-agent --prompt-file "$AGENT_RUNS_PROMPT_FILE"' --concurrency 4`,
  ],
  async run(flags, ctx) {
    const options = serverOptionsFromFlags(flags);
    const { io } = ctx;
    let server;
    try {
      server = await startLocalServer({ ...options, log: (line) => io.stderr.write(`${line}\n`) });
    } catch (error) {
      if (await isServerConfigError(error)) throw new UsageError((error as Error).message, 'serve');
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
        throw new UsageError(
          `Cannot listen on ${options.host ?? '127.0.0.1'}:${options.port} (${code}): pick another --port (0 picks a free one) or --host.`,
          'serve',
        );
      }
      throw error;
    }
    if (flags.bool('json')) writeJson(io.stdout, { url: server.url, baseURL: server.baseURL });
    if (!options.quiet) {
      const key = options.noAuth ? '' : 'AGENT_RUNS_API_KEY=<a key of this server> ';
      io.stderr.write(
        `Try it: ${key}${ctx.invocation} --base-url ${server.baseURL} run "Hello" --wait\n` + 'Press Ctrl-C to stop.\n',
      );
    }
    await untilStopped(io.onInterrupt);
    if (!options.quiet) io.stderr.write('Stopping...\n');
    await server.close();
    return EXIT.OK;
  },
};
