import { z } from 'zod';
import { completable, type McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { completeEnvironment, completeSkill } from './completions.js';
import { quoted, userMessage } from './prompt-text.js';

export function registerDelegateTaskPrompt(server: McpServer, ctx: ServerContext): void {
  server.registerPrompt(
    'delegate_task',
    {
      title: 'Delegate a task to a cloud agent',
      description: 'Hand a task to a cloud agent that works on it in the background, and follow it to the end.',
      argsSchema: z.object({
        task: z.string().min(1).describe('What the agent should do, as you would tell a colleague'),
        environment: completable(z.string().describe('The environment to run in (name or id)'), completeEnvironment(ctx.client)).optional(),
        skill: completable(z.string().describe('A skill to start from (its id)'), completeSkill(ctx.client)).optional(),
      }),
    },
    ({ task, environment, skill }) =>
      userMessage('Delegate a task to a cloud agent', [
        'Start a cloud agent run for the task below with the create_run tool, then follow it with wait_for_run and tell me how it ended.',
        `create_run arguments: prompt = ${quoted(task)}` +
          (environment ? `, environment = ${quoted(environment)}` : '') +
          (skill ? `, skill = ${quoted(skill)}` : ''),
        'If the run needs a person (BLOCKED) or fails, say why from its status message.',
      ]),
  );
}
