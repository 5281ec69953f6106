import { ServerConfigError } from '../domain/server-config-error.js';
import { durationFrom, listFrom, type HelpRow } from './flag-values.js';
import type { ServerOptions } from './server-options.js';

/**
 * The flags that say how agents run, shared by `agent-runs-server` and `agent-runs-worker`:
 * one parser and one description each, under each command's own variable names.
 */
export const EXECUTOR_FLAGS = {
  executor: { type: 'string' },
  command: { type: 'string' },
  'command-timeout': { type: 'string' },
  'work-dir': { type: 'string' },
  'agent-env': { type: 'string', multiple: true },
  sandbox: { type: 'string' },
  'agent-user': { type: 'string' },
  network: { type: 'string' },
  harness: { type: 'string' },
  'simulated-duration': { type: 'string' },
  config: { type: 'string' },
} as const;

type ExecutorFlag = keyof typeof EXECUTOR_FLAGS;

/** Each executor flag's environment variable, per command. */
export type ExecutorEnv = Record<ExecutorFlag, string>;

/** The values `parseArgs` read for the executor flags. */
export type ExecutorFlagValues = { [K in ExecutorFlag]?: (typeof EXECUTOR_FLAGS)[K] extends { multiple: true } ? string[] : string };

export type ExecutorArgs = Pick<
  ServerOptions,
  'executor' | 'command' | 'commandTimeoutMs' | 'workDir' | 'agentEnv' | 'sandbox' | 'agentUser' | 'network' | 'harness' | 'simulatedDurationMs' | 'configFile'
>;

/** The help row of each executor flag, under `env`'s variables; `who` is what runs the agents ("server", "worker"). */
export function executorHelpRows(env: ExecutorEnv, who: string): Record<ExecutorFlag, HelpRow> {
  return {
    executor: ['--executor <name>', 'simulated (default) or command.', env.executor],
    command: ['--command <command line>', 'The agent command; implies --executor command.', env.command],
    'command-timeout': ['--command-timeout <duration>', 'Stop an agent command after this long. Default 30m.', env['command-timeout']],
    'work-dir': ['--work-dir <dir>', 'Parent of the per-run working directories. Default a private directory under the temp directory.', env['work-dir']],
    'agent-env': [
      '--agent-env <name>',
      `Pass this variable of the ${who}'s environment to the agent command; repeat for several. The agent otherwise gets only PATH, HOME, USER, LOGNAME, LANG, LANGUAGE, LC_*, TZ, TMPDIR and the run's AGENT_RUNS_* variables. The variable takes a comma-separated list.`,
      env['agent-env'],
    ],
    sandbox: ['--sandbox <auto|on|off>', 'Run agents in a bubblewrap sandbox: auto (default) where it works, on refuses to start without it, off runs them bare.', env.sandbox],
    'agent-user': ['--agent-user <user>', `Where the ${who} runs as root: the user agents run as (name or uid[:gid]). Default nobody.`, env['agent-user']],
    network: ['--network <policy>', 'What sandboxed agents may reach: none, full (default), or a comma-separated list of hosts (name, name:port, *.name).', env.network],
    harness: [
      '--harness <name>',
      "The harness of runs that name none (or name oz): claude, codex or gemini (the CLI on PATH or at harnesses.<name>.command in the configuration file). Default the file's harnesses.default, else the executor.",
      env.harness,
    ],
    'simulated-duration': ['--simulated-duration <duration>', 'Length of a simulated run. Default 3s.', env['simulated-duration']],
    config: ['--config <file>', 'Configuration file (JSON or YAML): environments, skill directories, schedule time zone.', env.config],
  };
}

/** The executor flags (a flag wins over its variable) → options; throws ServerConfigError naming the flag. */
export function readExecutorArgs(values: ExecutorFlagValues, env: Record<string, string | undefined>, names: ExecutorEnv): ExecutorArgs {
  const options: ExecutorArgs = {};
  const set = <K extends keyof ExecutorArgs>(key: K, value: ExecutorArgs[K] | undefined) => {
    if (value !== undefined && value !== '') options[key] = value;
  };
  set('executor', (values.executor ?? env[names.executor]) as ServerOptions['executor']);
  set('command', values.command ?? env[names.command]);
  set('commandTimeoutMs', durationFrom('--command-timeout', values['command-timeout'] ?? env[names['command-timeout']]));
  set('workDir', values['work-dir'] ?? env[names['work-dir']]);
  set('simulatedDurationMs', durationFrom('--simulated-duration', values['simulated-duration'] ?? env[names['simulated-duration']]));
  set('configFile', values.config ?? env[names.config]);
  set('agentEnv', values['agent-env'] ?? listFrom(env[names['agent-env']]));
  const sandbox = values.sandbox ?? env[names.sandbox];
  if (sandbox !== undefined && sandbox !== '' && !['auto', 'on', 'off'].includes(sandbox)) {
    throw new ServerConfigError(`--sandbox must be auto, on or off, got "${sandbox}".`);
  }
  set('sandbox', sandbox as ServerOptions['sandbox']);
  set('agentUser', values['agent-user'] ?? env[names['agent-user']]);
  const network = values.network ?? env[names.network];
  if (network !== undefined && network.trim() !== '') {
    const word = network.trim();
    set('network', word === 'none' || word === 'full' ? word : (listFrom(word) ?? []));
  }
  set('harness', (values.harness ?? env[names.harness]) as ServerOptions['harness']);
  return options;
}
