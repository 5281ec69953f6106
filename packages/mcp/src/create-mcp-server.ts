import { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from './context.js';
import { SERVER_ICONS } from './icons.js';
import { registerPrompts } from './prompts/index.js';
import { registerResources } from './resources/index.js';
import { serveRunSubscriptions } from './resources/subscriptions.js';
import { installTaskExtension } from './tasks/task-extension.js';
import { installTaskWire } from './tasks/task-wire.js';
import { RESULT_TTL_MS } from './tasks/task-registry.js';
import { registerTools } from './tools/index.js';
import { CREATE_RUN } from './tools/create-run.js';
import { WAIT_FOR_RUN } from './tools/wait-for-run.js';
import { waitTimeoutMs } from './wait/wait-timeout-argument.js';
import { SERVER_NAME, VERSION } from './version.js';

const INSTRUCTIONS =
  'Tools for cloud agent runs: create_run starts one and returns its run_id (with wait: true it also follows it to ' +
  'the end); wait_for_run follows a run to the end (with progress; both are tasks for hosts with tasks); get_run and list_runs inspect runs; cancel_run stops one. list_environments, list_skills and ' +
  'list_agents show what a run can start from, list_workers the self-hosted workers it can run on; list_schedules and create_schedule manage runs on a cron. Runs are also readable as ' +
  'resources agent-run://{run_id} and agent-run://recent.';

/** A task must outlive the wait its call asks for (an invalid timeout is refused before it waits). */
const ttlPastWait = (args: Record<string, unknown>) => waitTimeoutMs(typeof args.timeout === 'string' ? args.timeout : undefined) + RESULT_TTL_MS;

/** The calls that become tasks on 2026-07-28 for hosts with the tasks extension: those that wait. */
const WAITING_TOOLS = [
  { name: WAIT_FOR_RUN, waits: () => true, minTtlMs: ttlPastWait },
  { name: CREATE_RUN, waits: (args: Record<string, unknown>) => args.wait === true, minTtlMs: ttlPastWait },
];

/** Which protocol revision an instance serves: the 2025-11-25 family, or 2026-07-28. */
export type ProtocolEra = 'legacy' | 'modern';

/**
 * One MCP server over a shared context: one per stdio connection, per HTTP session
 * (2025-11-25) or per HTTP request (2026-07-28). The waits live in the context, so that
 * an instance's end never ends them.
 */
export function createMcpServer(ctx: ServerContext, era: ProtocolEra = 'legacy'): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Cloud Agent Runs', version: VERSION, icons: SERVER_ICONS },
    {
      instructions: ctx.readOnly ? `${INSTRUCTIONS} This server is read-only: it cannot start or cancel runs.` : INSTRUCTIONS,
    },
  );
  registerTools(server, ctx);
  registerResources(server, ctx);
  registerPrompts(server, ctx);
  // Revision 2025-11-25's experimental tasks; 2026-07-28 has them as an extension instead.
  if (era === 'legacy') installTaskWire(server, ctx.tasks, [WAIT_FOR_RUN, CREATE_RUN], RESULT_TTL_MS);
  else installTaskExtension(server, ctx.tasks, WAITING_TOOLS);
  // Live runs for 2025-11-25 subscribers (resources/subscribe), from each run's event stream.
  if (era === 'legacy' && ctx.watcher) serveRunSubscriptions(server, ctx.watcher);
  // On 2026-07-28 the serving entry holds the subscriptions/listen streams; they are fed from the same watcher.
  if (era === 'modern' && ctx.watcher) server.server.registerCapabilities({ resources: { subscribe: true } });
  return server;
}
