import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { registerCancelRunTool } from './cancel-run.js';
import { registerMessageTools } from './messages.js';
import { registerCreateRunTool } from './create-run.js';
import { registerGetRunOutputTool } from './get-run-output.js';
import { registerFollowUpRunTool } from './follow-up-run.js';
import { registerGetRunConversationTool } from './get-run-conversation.js';
import { registerGetRunTool } from './get-run.js';
import { registerListRunsTool } from './list-runs.js';
import { registerWaitForRunTool } from './wait-for-run.js';
import { registerCreateScheduleTool } from './create-schedule.js';
import { registerDeleteScheduleTool } from './delete-schedule.js';
import { registerListAgentsTool } from './list-agents.js';
import { registerListEnvironmentsTool } from './list-environments.js';
import { registerListModelsTool } from './list-models.js';
import { registerListWorkersTool } from './list-workers.js';
import { registerCreateWebhookTool, registerListWebhooksTool } from './webhooks.js';
import { registerListSchedulesTool } from './list-schedules.js';
import { registerListSkillsTool } from './list-skills.js';
import { registerPauseScheduleTools } from './pause-schedule.js';
import { answerUnknownTools } from './unknown-tool.js';
import { toolIcons } from '../icons.js';

/** Gives every tool registered through `server` its icons, by name, in this one place. */
function withToolIcons(server: McpServer): McpServer {
  const register = server.registerTool.bind(server) as (name: string, config: object, cb: unknown) => unknown;
  return new Proxy(server, {
    get: (target, key, receiver) =>
      key === 'registerTool'
        ? (name: string, config: object, cb: unknown) => register(name, { icons: toolIcons(name), ...config }, cb)
        : Reflect.get(target, key, receiver),
  });
}

/** Registers every tool; in read-only mode only those that change nothing (lists, get, output, wait, conversation). */
export function registerTools(mcpServer: McpServer, ctx: ServerContext): void {
  const server = withToolIcons(mcpServer);
  if (!ctx.readOnly) registerCreateRunTool(server, ctx);
  registerListRunsTool(server, ctx);
  registerGetRunTool(server, ctx);
  registerGetRunOutputTool(server, ctx);
  registerWaitForRunTool(server, ctx);
  if (!ctx.readOnly) registerFollowUpRunTool(server, ctx);
  registerGetRunConversationTool(server, ctx);
  if (!ctx.readOnly) registerCancelRunTool(server, ctx);
  // Reading marks messages read: a change, so a read-only server offers neither.
  if (!ctx.readOnly) registerMessageTools(server, ctx);
  registerListEnvironmentsTool(server, ctx);
  registerListModelsTool(server, ctx);
  registerListWorkersTool(server, ctx);
  registerListWebhooksTool(server, ctx);
  if (!ctx.readOnly) registerCreateWebhookTool(server, ctx);
  registerListSkillsTool(server, ctx);
  registerListAgentsTool(server, ctx);
  registerListSchedulesTool(server, ctx);
  if (!ctx.readOnly) {
    registerCreateScheduleTool(server, ctx);
    registerPauseScheduleTools(server, ctx);
    registerDeleteScheduleTool(server, ctx);
  }
  answerUnknownTools(mcpServer, ctx.readOnly);
}
