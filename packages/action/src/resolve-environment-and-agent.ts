import { environmentIdFor, agentUidFor, type AgentRunsClient, type RunAgentRequest } from '@agent-runs/core';

/**
 * The `environment` and `agent` inputs may name an environment and a named agent by name;
 * the create needs their ids. Each is looked up only when given (one list call each).
 */
export async function resolveEnvironmentAndAgent(client: AgentRunsClient, request: RunAgentRequest, agent: string | undefined): Promise<RunAgentRequest> {
  let resolved = request;
  const environment = request.config?.environment_id;
  if (environment !== undefined) {
    const environmentId = await environmentIdFor(client.environments, environment, 'Input "environment"');
    resolved = { ...resolved, config: { ...resolved.config, environment_id: environmentId } };
  }
  if (agent !== undefined) {
    resolved = { ...resolved, agent_identity_uid: await agentUidFor(client.agents, agent, 'Input "agent"') } as RunAgentRequest;
  }
  return resolved;
}
