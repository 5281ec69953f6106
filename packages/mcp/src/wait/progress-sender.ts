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

/**
 * A wait's onProgress: the task's status message (`Run 6f1c… is INPROGRESS · 3m12s · line`,
 * what hosts polling the task read) and a progress notification when the host asked for one.
 */
export function progressReporter(
  task: { status(message: string): void },
  runId: string,
  request: RequestContext,
): (message: string, run: unknown) => Promise<void> {
  const send = progressSender(request);
  return (message, run) => {
    task.status(run ? `Run ${runId} is ${message}` : message);
    return send(message);
  };
}
