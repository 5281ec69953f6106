import { environmentIdFor, agentUidFor, type AgentRunsClient, type AmbientAgentConfig } from '@agent-runs/core';
import type { ParsedFlags } from '../flags/parsed-flags.js';

/**
 * `--environment` and `--agent` name an environment and a named agent by name or id; the
 * ids the API takes are looked up (one list call each, only when the flag is given).
 */
export async function resolveEnvironmentAndAgentFlags(
  flags: ParsedFlags,
  client: AgentRunsClient,
): Promise<{ environmentId?: string | undefined; agentUid?: string | undefined }> {
  const environment = flags.nonEmpty('environment');
  const agent = flags.nonEmpty('agent');
  return {
    environmentId: environment === undefined ? undefined : await environmentIdFor(client.environments, environment, '--environment'),
    agentUid: agent === undefined ? undefined : await agentUidFor(client.agents, agent, '--agent'),
  };
}

/** The config with the resolved environment id in it. */
export function withEnvironment(config: AmbientAgentConfig | undefined, environmentId: string | undefined): AmbientAgentConfig | undefined {
  return environmentId === undefined ? config : { ...config, environment_id: environmentId };
}
