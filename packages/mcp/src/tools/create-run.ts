import { z } from 'zod';
import { environmentIdFor, agentUidFor, RunAgentRequestSchema, RunAgentResponseSchema, type RunAgentRequest } from '@agent-runs/core';
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { RESULT_TTL_MS } from '../tasks/task-registry.js';
import { runAsTask } from '../tasks/task-scope.js';
import { waitForRunOutput, waitResult } from '../wait/wait-result.js';
import { waitTimeoutArgument, waitTimeoutMs } from '../wait/wait-timeout-argument.js';
import { BUDGET_ARGUMENTS, budgetOf } from './budget-arguments.js';
import { resolveCreateRunInputs } from './create-run-missing.js';
import { followRunInTask } from './follow-run-in-task.js';
import { toolErrorResult } from './tool-error.js';

const request = RunAgentRequestSchema.shape;

export const CREATE_RUN = 'create_run';

const createRunOutput = RunAgentResponseSchema.extend({
  wait: waitForRunOutput.optional().describe('With wait: true, how the run ended (or where it was when the wait timed out)'),
});

export function registerCreateRunTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    CREATE_RUN,
    {
      title: 'Start a cloud agent run',
      description:
        'Starts a cloud agent run that works on a task in the background (for example: fix a bug, open a pull request, ' +
        'answer a question about a repository). Give a self-contained `prompt`, or a `skill`. Returns at once with the ' +
        'run_id and its first state (usually QUEUED); then call wait_for_run with the run_id to follow it to the end, ' +
        'or get_run to check on it. Each call starts a new run: do not call it again to retry a wait. A `skill`, an ' +
        '`environment` and a named `agent` may be given by name or id; when unsure which exist, call list_skills, ' +
        'list_environments or list_agents first; `worker_host` runs it on a self-hosted worker (see list_workers); `max_cost_usd`, ' +
        '`max_tokens` and `max_duration_seconds` cap what it may spend (at a cap it ends BLOCKED); `pull_request` (draft or ready) has the server open a pull request with its changes where the environment allows it. When the prompt is missing or an environment or agent is unknown, ' +
        'hosts that can ask their user are asked for it (with the valid choices); others get an error naming them. ' +
        'With wait: true it then follows the run to the end like wait_for_run (hosts with the tasks extension get a ' +
        'task they can leave, poll and cancel, which cancels the run).',
      // Strict: a misplaced argument (mcp_servers outside config, say) is named, not dropped.
      inputSchema: z.strictObject({
        prompt: request.prompt,
        title: request.title,
        skill: request.skill,
        environment: z
          .string()
          .min(1)
          .optional()
          .describe('The environment to run in, by name or id (see list_environments); sets config.environment_id'),
        agent: z.string().min(1).optional().describe('A named agent whose defaults the run takes, by name or id (see list_agents)'),
        harness: z
          .enum(['claude', 'codex', 'gemini', 'oz'])
          .optional()
          .describe('The agent CLI that runs the task: claude (Claude Code), codex, gemini, or oz (the server default); sets config.harness.type'),
        model: z
          .string()
          .min(1)
          .optional()
          .describe('The model id (GET /agent/models lists them); with harness it sets config.harness.model_id, else config.model_id'),
        worker_host: z
          .string()
          .min(1)
          .optional()
          .describe('Run on a self-hosted worker connected under this id (see list_workers); sets config.worker_host'),
        ...BUDGET_ARGUMENTS,
        pull_request: z
          .enum(['draft', 'ready', 'off'])
          .optional()
          .describe('Open a pull request with the run’s changes (draft or ready), or none (off); only where the environment declares pull_requests (default: the environment’s own); sets config.pull_request'),
        team: request.team,
        config: request.config,
        wait: z.boolean().optional().describe('Follow the run to the end before answering, like wait_for_run (default false)'),
        timeout: waitTimeoutArgument,
      }),
      outputSchema: createRunOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (given, ask) => {
      try {
        // A missing prompt, or an environment or agent the server lacks, is asked of the user.
        const resolved = await resolveCreateRunInputs(server, ctx.client, ask, given);
        if (resolved.kind === 'answer') return resolved.result;
        const { environment, agent, harness, model, worker_host, pull_request, wait, timeout, max_cost_usd, max_tokens, max_duration_seconds, ...args } = { ...given, ...resolved.inputs };
        const body = { ...args } as RunAgentRequest & { agent_identity_uid?: string };
        const budget = budgetOf({ max_cost_usd, max_tokens, max_duration_seconds });
        if (budget) body.config = { ...body.config, budget: { ...body.config?.budget, ...budget } };
        if (worker_host !== undefined) body.config = { ...body.config, worker_host };
        if (pull_request !== undefined) body.config = { ...body.config, pull_request };
        if (harness !== undefined) body.config = { ...body.config, harness: { ...body.config?.harness, type: harness, ...(model !== undefined ? { model_id: model } : {}) } };
        else if (model !== undefined) body.config = { ...body.config, model_id: model };
        if (environment !== undefined) {
          body.config = { ...body.config, environment_id: await environmentIdFor(ctx.client.environments, environment, 'environment', 'call list_environments for them') };
        }
        if (agent !== undefined) body.agent_identity_uid = await agentUidFor(ctx.client.agents, agent, 'agent', 'call list_agents for them');
        const created = await ctx.client.runs.create(body);
        const capacity = created.at_capacity ? ' The service is at capacity, so it may stay queued for a while.' : '';
        const startedText = `Started run ${created.run_id} (state ${created.state}).${capacity}`;
        if (!wait) {
          return {
            structuredContent: created,
            content: [{ type: 'text', text: `${startedText} Call wait_for_run with run_id "${created.run_id}" to follow it to the end.` }],
          };
        }
        const timeoutMs = waitTimeoutMs(timeout);
        return await runAsTask(ctx.tasks, ask, timeoutMs + RESULT_TTL_MS, async (task): Promise<CallToolResult> => {
          // This task is the run: a host cancelling it cancels the run, not only the wait.
          task.onHostCancel(() => void ctx.client.runs.cancel(created.run_id).catch(() => {}), `Run ${created.run_id} was cancelled.`);
          let outcome;
          try {
            outcome = await followRunInTask(ctx, task, created.run_id, timeoutMs, ask);
          } catch (error) {
            if (task.signal.aborted) throw error;
            // The run was started: the error is the wait's, and says so.
            return toolErrorResult(error, { tool: CREATE_RUN, doing: `wait for run ${created.run_id}, which was started`, names: 'run' }, ctx.client);
          }
          const waited = waitResult(created.run_id, outcome);
          const text = waited.content[0]?.type === 'text' ? waited.content[0].text : '';
          return {
            structuredContent: { ...created, wait: waited.structuredContent },
            content: [{ type: 'text', text: `${startedText}\n${text}` }],
          };
        });
      } catch (error) {
        if (ask.mcpReq.signal.aborted) throw error;
        return toolErrorResult(error, { tool: CREATE_RUN, doing: 'start the run' }, ctx.client);
      }
    },
  );
}
