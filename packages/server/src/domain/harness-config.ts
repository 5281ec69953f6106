/** The harnesses (agent CLIs) the server can drive as a run's agent. */
export const HARNESS_NAMES = ['claude', 'codex', 'gemini'] as const;
export type HarnessName = (typeof HARNESS_NAMES)[number];

export function isHarnessName(value: unknown): value is HarnessName {
  return typeof value === 'string' && (HARNESS_NAMES as readonly string[]).includes(value);
}

/** A model the configuration file adds to a harness's built-in list. */
export interface DeclaredModel {
  id: string;
  displayName: string;
  visionSupported: boolean;
  reasoningLevel?: string | undefined;
}

/** One harness as the configuration file's `harnesses:` section sets it up. */
export interface HarnessSettings {
  /** The CLI: a path, or a name looked up on PATH. Default the harness's own command name. */
  command?: string | undefined;
  /** Arguments put before the server's own on every start. */
  args: string[];
  /** Variables of the server's environment the CLI gets (its key, its base URL), by name. */
  env: string[];
  models: DeclaredModel[];
}

export interface HarnessesConfig {
  /** The harness of runs that name none (or name `oz`). */
  default?: HarnessName | undefined;
  settings: Partial<Record<HarnessName, HarnessSettings>>;
}
