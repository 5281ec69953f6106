import type { AgentSandbox } from './agent-sandbox.js';

/**
 * The start-up warning for agents that run bare on a server several principals use: every
 * run's agent is then one OS user, so one principal's agent can read and write another's
 * runs (their `mcp.json` with its MCP token, attachments, prompts, report files).
 */
export function bareAgentsWarning(sandbox: AgentSandbox, principals: readonly string[]): string | undefined {
  // With a uid per principal, agents are kept apart by ownership and modes.
  if (sandbox.bwrap || sandbox.userFor) return undefined;
  const count = new Set(principals).size;
  if (count < 2) return undefined;
  return `Warning: agents run unsandboxed as one user for ${count} principals, so any run's agent can read and write every other run's files (mcp.json with its MCP token, attachments, prompts); turn the sandbox on (--sandbox on) to keep principals apart.`;
}
