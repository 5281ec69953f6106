import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { HarnessesConfig, HarnessName, HarnessSettings } from '../../domain/harness-config.js';
import type { AmbientAgentConfig } from '@agent-runs/core/contract';
import type { NamedSecrets, SecretScope } from '../../domain/named-secrets.js';
import type { EnvironmentConfig } from '../../domain/server-config.js';
import type { HarnessDriver } from './harness-driver.js';
import { HARNESS_DRIVERS } from './drivers-by-name.js';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The CLI's path: the configured command (a path, or a name on PATH), else its own name on PATH. */
export function findCommand(command: string, path: string | undefined): string | undefined {
  if (command.includes('/')) return isAbsolute(command) && isExecutable(command) ? command : undefined;
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

/** Why a harness cannot serve a run, for the 400 of a create and a model's disable_reason. */
export type HarnessProblem = { kind: 'missing-cli'; message: string } | { kind: 'missing-key'; message: string };

/**
 * The harnesses as this server can start them: their CLI, the variables they get, their key.
 * Read once at start-up from the configuration and the server's environment.
 */
export class HarnessSetup {
  constructor(
    readonly config: HarnessesConfig,
    private readonly secrets: NamedSecrets,
    /** The environments, whose `secrets` lists are what their runs may name as a key. */
    environments: readonly EnvironmentConfig[],
    env: NodeJS.ProcessEnv = process.env,
    /** The server's default harness from its flag, over the configuration file's. */
    private readonly defaultFlag?: HarnessName | undefined,
    private readonly drivers: ReadonlyMap<HarnessName, HarnessDriver> = HARNESS_DRIVERS,
  ) {
    this.env = { ...env };
    this.environmentSecrets = new Map(environments.map((e) => [e.id, e.secrets ?? []]));
  }

  private readonly environmentSecrets: ReadonlyMap<string, readonly string[]>;

  /** The server's environment as it was at start-up, which the harnesses' allowed variables come from. */
  readonly env: NodeJS.ProcessEnv;

  get defaultHarness(): HarnessName | undefined {
    return this.defaultFlag ?? this.config.default;
  }

  /** Every declared secret's value, for masking what a harness prints. */
  secretValues(): string[] {
    return this.secrets.values();
  }

  driver(name: HarnessName): HarnessDriver | undefined {
    return this.drivers.get(name);
  }

  names(): HarnessName[] {
    return [...this.drivers.keys()];
  }

  settings(name: HarnessName): HarnessSettings {
    return this.config.settings[name] ?? { args: [], env: [], models: [] };
  }

  command(name: HarnessName): string | undefined {
    const driver = this.drivers.get(name);
    if (!driver) return undefined;
    return findCommand(this.settings(name).command ?? driver.defaultCommand, this.env['PATH']);
  }

  /** The server variables the CLI gets beyond the common allow-list: those the configuration names. */
  passedVariables(name: HarnessName): string[] {
    return this.settings(name).env;
  }

  /** The declared secret a run's `harness_auth_secrets` names as this harness's key, if any. */
  secretName(name: HarnessName, config: AmbientAgentConfig): string | undefined {
    const field = this.drivers.get(name)?.authSecretField;
    const named = field ? (config.harness_auth_secrets as Record<string, unknown> | undefined)?.[field] : undefined;
    return typeof named === 'string' ? named : undefined;
  }

  /** The secrets a run may name as its key: those its environment lists, and those declared for its principal. */
  secretScope(config: AmbientAgentConfig, principal: string | undefined): SecretScope {
    const environmentSecrets = config.environment_id === undefined ? [] : (this.environmentSecrets.get(config.environment_id) ?? []);
    return { environmentSecrets, principal };
  }

  /** The key for a run: its named secret when it names one it may use, else an allowed variable that is set. */
  key(name: HarnessName, secretName: string | undefined, scope: SecretScope): { value: string; variable?: string } | undefined {
    if (secretName) {
      const value = this.secrets.valueFor(secretName, scope);
      return value ? { value } : undefined;
    }
    const driver = this.drivers.get(name);
    for (const variable of driver?.keyVariables ?? []) {
      const value = this.env[variable];
      if (value && this.passedVariables(name).includes(variable)) return { value, variable };
    }
    return undefined;
  }

  /** What stops this server from starting the harness for a run, if anything. */
  problem(name: HarnessName, secretName?: string, scope: SecretScope = { environmentSecrets: [], principal: undefined }): HarnessProblem | undefined {
    const driver = this.drivers.get(name);
    if (!driver) return { kind: 'missing-cli', message: `this server does not drive the ${name} harness yet` };
    if (!this.command(name)) {
      const configured = this.settings(name).command;
      const where = configured ? `at ${configured} (harnesses.${name}.command)` : `on the server's PATH`;
      return { kind: 'missing-cli', message: `the ${name} CLI is not installed ${where}; install it with \`${driver.installHint}\` or set harnesses.${name}.command in the configuration file` };
    }
    if (!this.key(name, secretName, scope)) {
      // The same answer whether or not a secret of that name exists: the names of others' secrets are not told.
      if (secretName) {
        return {
          kind: 'missing-key',
          message: `"${secretName}" is no secret this run may use: name one its environment lists (environments.<id>.secrets) or one declared for its principal (secrets.<NAME>.owner in the server's configuration file)`,
        };
      }
      return {
        kind: 'missing-key',
        message: `the ${name} harness has no key: set ${driver.keyVariables[0]} and list it under harnesses.${name}.env in the configuration file, or name a declared secret in agent_config.harness_auth_secrets.${driver.authSecretField}`,
      };
    }
    return undefined;
  }
}
