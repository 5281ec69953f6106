import { z } from 'zod';
import { completable, type McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { completeRecentRun } from './completions.js';
import { quoted, userMessage } from './prompt-text.js';

export function registerContinueRunPrompt(server: McpServer, ctx: ServerContext): void {
  server.registerPrompt(
    'continue_run',
    {
      title: 'Continue a cloud agent run',
      description: 'Send a finished or waiting run a follow-up message and follow its answer.',
      argsSchema: z.object({
        run_id: completable(z.string().min(1).describe('The run to continue (recent runs complete)'), completeRecentRun(ctx.client)),
        message: z.string().min(1).describe('What the agent should do next'),
      }),
    },
    ({ run_id, message }) =>
      userMessage('Continue a cloud agent run', [
        `Read run ${quoted(run_id)} with get_run, then send it a follow-up with follow_up_run (message below, wait: true) and tell me what the agent answered.`,
        `message = ${quoted(message)}`,
      ]),
  );
}
