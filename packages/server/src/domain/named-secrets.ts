/**
 * Secrets the configuration file declares by name (each read from a variable or a file at
 * start-up, never written inline). Environments hand them to runs as variables, and
 * `harness_auth_secrets` names pick a harness's key from them; every value is masked in
 * run text.
 */
export class NamedSecrets {
  readonly #byName: ReadonlyMap<string, string>;

  constructor(byName: ReadonlyMap<string, string> = new Map()) {
    this.#byName = byName;
  }

  /** The value of the secret called `name`, or undefined when none is declared. */
  value(name: string): string | undefined {
    return this.#byName.get(name);
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Every declared value, for masking run text. */
  values(): string[] {
    return [...this.#byName.values()];
  }
}
