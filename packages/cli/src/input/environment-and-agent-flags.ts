import { environmentIdFor, agentUidFor, type AgentRunsClient, type AmbientAgentConfig } from '@agent-runs/core';
import type { ParsedFlags } from '../flags/parsed-flags.js';

/** The end of an unknown environment's message: the command that lists them. */
export const environmentsHint = (invocation: string) => `list them with "${invocation} environments"`;
/** The end of an unknown named agent's message: the command that lists them. */
export const agentsHint = (invocation: string) => `list them with "${invocation} agents"`;

/**
 * `--environment` and `--agent` name an environment and a named agent by name or id; the
 * ids the API takes are looked up (one list call each, only when the flag is given).
 */
export async function resolveEnvironmentAndAgentFlags(
  flags: ParsedFlags,
  client: AgentRunsClient,
  /** How to write the command in a hint, e.g. `agent-runs`: an unknown name points at its list command. */
  invocation: string,
): Promise<{ environmentId?: string | undefined; agentUid?: string | undefined }> {
  const environment = flags.nonEmpty('environment');
  const agent = flags.nonEmpty('agent');
  return {
    environmentId:
      environment === undefined ? undefined : await environmentIdFor(client.environments, environment, '--environment', environmentsHint(invocation)),
    agentUid: agent === undefined ? undefined : await agentUidFor(client.agents, agent, '--agent', agentsHint(invocation)),
  };
}

/** The config with the resolved environment id in it. */
export function withEnvironment(config: AmbientAgentConfig | undefined, environmentId: string | undefined): AmbientAgentConfig | undefined {
  return environmentId === undefined ? config : { ...config, environment_id: environmentId };
}
