import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { registerContinueRunPrompt } from './continue-run.js';
import { registerDelegateTaskPrompt } from './delegate-task.js';
import { registerInvestigateWorkflowPrompt } from './investigate-workflow.js';
import { registerReviewPullRequestPrompt } from './review-pull-request.js';

/** Prompts hosts show as commands; they start runs, so a read-only server has none. */
export function registerPrompts(server: McpServer, ctx: ServerContext): void {
  if (ctx.readOnly) return;
  registerDelegateTaskPrompt(server, ctx);
  registerContinueRunPrompt(server, ctx);
  registerReviewPullRequestPrompt(server, ctx);
  registerInvestigateWorkflowPrompt(server, ctx);
}
