import type { AmbientAgentConfig } from '@agent-runs/core/contract';

/**
 * The configuration as the session page may show it: MCP servers' `env` and `headers`
 * values often hold tokens, and the page is open to anyone with its link.
 */
export function redactAgentConfig(config: AmbientAgentConfig): AmbientAgentConfig {
  if (!config.mcp_servers) return config;
  const hide = (values: Record<string, string> | undefined) =>
    values && Object.fromEntries(Object.keys(values).map((name) => [name, '***']));
  const servers = Object.fromEntries(
    Object.entries(config.mcp_servers).map(([name, server]) => [
      name,
      {
        ...server,
        env: hide(server.env),
        headers: hide(server.headers),
      },
    ]),
  );
  return { ...config, mcp_servers: servers };
}
