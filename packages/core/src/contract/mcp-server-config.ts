import { z } from 'zod';
import { multiLineText, singleLineText } from './control-characters.js';

const TRANSPORT_KEYS = ['warp_id', 'command', 'url'] as const;

/**
 * One MCP server for the agent: exactly one of `warp_id` (a shared server),
 * `command` (stdio, with `args` and `env`) or `url` (HTTP/SSE, with `headers`).
 */
export const MCPServerConfigSchema = z
  .looseObject({
    warp_id: z.string().min(1).optional().describe('Reference to a shared MCP server by id'),
    command: multiLineText(z.string().min(1)).optional().describe('Stdio transport: the command to run'),
    args: z.array(multiLineText(z.string())).optional().describe('Stdio transport: command arguments'),
    env: z.record(singleLineText(z.string()), multiLineText(z.string())).optional().describe('Environment variables for the server'),
    url: z.url().optional().describe('HTTP/SSE transport: the server URL'),
    headers: z.record(singleLineText(z.string()), singleLineText(z.string())).optional().describe('HTTP headers for the HTTP/SSE transport'),
  })
  .superRefine((value, ctx) => {
    const present = TRANSPORT_KEYS.filter((key) => value[key] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          present.length === 0
            ? 'must have exactly one of warp_id, command or url (none given)'
            : `must have exactly one of warp_id, command or url (got ${present.join(' and ')})`,
      });
    }
  })
  .describe('An MCP server: exactly one of warp_id, command or url');

export type MCPServerConfig = z.infer<typeof MCPServerConfigSchema>;

/** Server name → configuration, as in `config.mcp_servers`. */
export const MCPServersSchema = z.record(z.string().min(1), MCPServerConfigSchema);
export type MCPServers = z.infer<typeof MCPServersSchema>;
