import { readFileSync } from 'node:fs';
import { issuePath } from '../contract/format-issues.js';
import { MCPServersSchema, type MCPServers } from '../contract/mcp-server-config.js';
import { RequestValidationError } from '../errors/request-validation-error.js';

/**
 * MCP servers from JSON text or from a path to a JSON file. Accepts the servers object
 * itself or the common `{ "mcpServers": { … } }` file shape. Throws RequestValidationError
 * whose every issue starts with `what` (a flag or input), then names the server and field.
 */
export function parseMcpServersInput(input: string, what = 'mcp-servers'): MCPServers {
  const text = input.trim();
  let given = 'JSON';
  let json = text;
  if (!text.startsWith('{')) {
    given = `file ${text}`;
    try {
      json = readFileSync(text, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new RequestValidationError(what, [
        { path: what, message: `is neither a JSON object nor a readable file (${code ?? 'unreadable'}: ${text})` },
      ]);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new RequestValidationError(what, [{ path: what, message: `${given} is not valid JSON (${(error as Error).message})` }]);
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && 'mcpServers' in value) {
    value = (value as { mcpServers: unknown }).mcpServers;
  }
  const parsed = MCPServersSchema.safeParse(value);
  if (!parsed.success) {
    // Every line names the input first, then the server and field inside it.
    const issues = parsed.error.issues.map((issue) => ({
      path: what,
      message: `${issue.path.length > 0 ? `server ${issuePath(issue.path)}: ` : ''}${issue.message}`,
    }));
    throw new RequestValidationError(what, issues);
  }
  return parsed.data;
}
