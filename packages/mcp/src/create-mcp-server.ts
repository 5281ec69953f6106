import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerContext } from './context.js';
import { registerResources } from './resources/index.js';
import { CancellableTaskStore } from './tasks/cancellable-task-store.js';
import { registerTools } from './tools/index.js';
import { SERVER_NAME, VERSION } from './version.js';

const INSTRUCTIONS =
  'Tools for cloud agent runs: create_run starts one and returns its run_id; wait_for_run follows it to the end ' +
  '(with progress); get_run and list_runs inspect runs; cancel_run stops one. list_environments, list_skills and ' +
  'list_agents show what a run can start from; list_schedules and create_schedule manage runs on a cron. Runs are also readable as ' +
  'resources agent-run://{run_id} and agent-run://recent.';

/**
 * One MCP server (one per connection: stdio has one, HTTP one per session) over a shared
 * context. Closing it stops the waits it started.
 */
export function createMcpServer(ctx: ServerContext): McpServer {
  const tasks = new CancellableTaskStore();
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Cloud Agent Runs', version: VERSION },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: tasks,
      instructions: ctx.readOnly ? `${INSTRUCTIONS} This server is read-only: it cannot start or cancel runs.` : INSTRUCTIONS,
    },
  );
  registerTools(server, ctx, tasks);
  registerResources(server, ctx);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    tasks.close();
    previous?.();
  };
  return server;
}
