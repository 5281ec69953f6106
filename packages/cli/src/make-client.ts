import { AgentRunsClient, ClientConfigError, ENV, missingApiKeyProblem } from '@agent-runs/core';
import type { ParsedFlags } from './flags/parsed-flags.js';
import type { Io } from './io.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export interface ClientTarget {
  baseURL?: string;
  apiKey?: string;
}

/** The target the global flags name; blank values are mistakes, not "use the default". */
export function targetFromFlags(flags: ParsedFlags): ClientTarget {
  const target: ClientTarget = {};
  const baseURL = flags.nonEmpty('base-url');
  const apiKey = flags.nonEmpty('api-key');
  if (baseURL !== undefined) target.baseURL = baseURL.trim();
  if (apiKey !== undefined) target.apiKey = apiKey.trim();
  return target;
}

/** Where the base URL came from, to name it in a message: the flag, or the variable that set it. */
export function baseUrlSetBy(target: ClientTarget, env: Io['env']): string {
  if (target.baseURL !== undefined) return '--base-url';
  return ENV.baseURL.find((name) => env[name] !== undefined && env[name] !== '') ?? '--base-url';
}

/**
 * A client that says it is the CLI (the server records the run's source as CLI). Fails
 * early, with exit 2, when no key is set for a remote server: every call would be a 401.
 */
export function makeClient(target: ClientTarget, io: Io, command: string): AgentRunsClient {
  let client: AgentRunsClient;
  try {
    client = new AgentRunsClient({
      ...target,
      source: 'CLI',
      userAgent: `agent-runs-cli/${VERSION}`,
      env: io.env,
    });
  } catch (error) {
    if (error instanceof ClientConfigError) throw new UsageError(`${baseUrlSetBy(target, io.env)}: ${error.message}`, command);
    throw error;
  }
  const noKey = missingApiKeyProblem(client, 'pass --api-key');
  if (noKey) throw new UsageError(noKey, command);
  return client;
}
