import type { ServerContext as RequestContext } from '@modelcontextprotocol/server';

/**
 * Sends each message as a progress notification when the host asked for them (a
 * progressToken); a notification that cannot go out (the host has left) is dropped.
 */
export function progressSender(request: RequestContext): (message: string) => Promise<void> {
  const progressToken = request.mcpReq._meta?.progressToken;
  let progress = 0;
  return async (message) => {
    if (progressToken === undefined) return;
    progress += 1;
    await request.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken, progress, message } })
      .catch(() => {});
  };
}
