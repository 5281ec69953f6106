import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from '../context.js';
import type { CancellableTaskStore } from '../tasks/cancellable-task-store.js';
import { registerCancelRunTool } from './cancel-run.js';
import { registerCreateRunTool } from './create-run.js';
import { registerFollowUpRunTool } from './follow-up-run.js';
import { registerGetRunConversationTool } from './get-run-conversation.js';
import { registerGetRunTool } from './get-run.js';
import { registerListRunsTool } from './list-runs.js';
import { registerWaitForRunTool } from './wait-for-run.js';

/** Registers every tool; in read-only mode only those that change nothing (list, get, wait, conversation). */
export function registerTools(server: McpServer, ctx: ServerContext, tasks: CancellableTaskStore): void {
  if (!ctx.readOnly) registerCreateRunTool(server, ctx);
  registerListRunsTool(server, ctx);
  registerGetRunTool(server, ctx);
  registerWaitForRunTool(server, ctx, tasks);
  if (!ctx.readOnly) registerFollowUpRunTool(server, ctx);
  registerGetRunConversationTool(server, ctx);
  if (!ctx.readOnly) registerCancelRunTool(server, ctx);
}
