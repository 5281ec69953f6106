import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { wrapRequestHandler } from '../sdk/wrap-request-handler.js';
import { errorResult } from './tool-error.js';

/**
 * A call to a tool this server does not have (a read-only server's create_run, an old name)
 * answers as a tool error the assistant reads, with the way out, not as a protocol error.
 */
export function answerUnknownTools(server: McpServer, readOnly: boolean): void {
  wrapRequestHandler(server, 'tools/call', (callTool) => async (request, ctx) => {
    try {
      return await callTool(request, ctx);
    } catch (error) {
      if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.InvalidParams || !/Tool .* not found/.test(error.message)) throw error;
      const why = readOnly ? ' This server is read-only: it has only the tools that change nothing.' : '';
      return errorResult(`Tool ${String(request.params?.name).slice(0, 100)} not found.${why} Call tools/list for the tools it has.`);
    }
  });
}
