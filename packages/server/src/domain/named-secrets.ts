import { ServerConfigError } from './server-config-error.js';

/** Which run asks for a secret by name: the secrets its environment lists, and its principal. */
export interface SecretScope {
  environmentSecrets: readonly string[];
  principal: string | undefined;
}

/**
 * Secrets the configuration file declares by name (each read from a variable or a file at
 * start-up, never written inline). Environments hand them to runs as variables, and
 * `harness_auth_secrets` names pick a harness's key from them; every value is masked in
 * run text.
 */
export class NamedSecrets {
  readonly #byName: ReadonlyMap<string, string>;
  readonly #owners: ReadonlyMap<string, string>;

  constructor(byName: ReadonlyMap<string, string> = new Map(), owners: ReadonlyMap<string, string> = new Map()) {
    this.#byName = byName;
    this.#owners = owners;
  }

  /** The value of the secret called `name`, or undefined when none is declared. */
  value(name: string): string | undefined {
    return this.#byName.get(name);
  }

  /**
   * The value of `name` for a run that names it (a harness's key): only a secret its
   * environment lists or one declared for its principal (`owner`); undefined otherwise,
   * whether or not a secret of that name exists.
   */
  valueFor(name: string, scope: SecretScope): string | undefined {
    const owner = this.#owners.get(name);
    const allowed = scope.environmentSecrets.includes(name) || (owner !== undefined && owner === scope.principal);
    return allowed ? this.#byName.get(name) : undefined;
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Each secret declared for one principal, with that principal (checked against the keys' at start). */
  owners(): [name: string, owner: string][] {
    return [...this.#owners];
  }

  /** Every declared value, for masking run text. */
  values(): string[] {
    return [...this.#byName.values()];
  }
}

/** Refuses, at start, a secret declared for a principal no API key of this server has. */
export function checkSecretOwners(secrets: NamedSecrets, principals: readonly string[]): void {
  for (const [name, owner] of secrets.owners()) {
    if (!principals.includes(owner)) {
      throw new ServerConfigError(`Configuration file: secrets.${name}.owner: "${owner}" is not a principal of this server's API keys (principals: ${principals.join(', ') || 'none'}).`);
    }
  }
}
