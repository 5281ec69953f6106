import type { McpServer, ServerContext as RequestContext } from '@modelcontextprotocol/server';

export type RawRequest = { method: string; params?: Record<string, unknown> };
export type RawHandler = (request: RawRequest, ctx: RequestContext) => Promise<unknown>;

/**
 * Puts `wrap` around the handler the SDK registered for `method`, outside its result
 * validation: for what the SDK v2 no longer has (2025-11-25 tasks). The SDK keeps its
 * handlers in a private map; false when that map or the handler is not there (then the
 * caller offers nothing it could not serve).
 */
export function wrapRequestHandler(server: McpServer, method: string, wrap: (next: RawHandler) => RawHandler): boolean {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawHandler> })._requestHandlers;
  const next = handlers?.get(method);
  if (!handlers || !next) return false;
  handlers.set(method, wrap(next));
  return true;
}
