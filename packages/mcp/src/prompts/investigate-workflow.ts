import { z } from 'zod';
import { completable, type McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { completeEnvironment } from './completions.js';
import { quoted, userMessage } from './prompt-text.js';

export function registerInvestigateWorkflowPrompt(server: McpServer, ctx: ServerContext): void {
  server.registerPrompt(
    'investigate_failing_workflow',
    {
      title: 'Investigate a failing workflow run',
      description: 'Have a cloud agent find why a CI workflow run failed and propose (or open) a fix.',
      argsSchema: z.object({
        workflow_run: z.string().min(1).describe('The failing workflow run URL'),
        open_pull_request: z.enum(['yes', 'no']).optional().describe('Whether the agent may open a pull request with a fix'),
        environment: completable(z.string().describe('The environment with the repository (name or id)'), completeEnvironment(ctx.client)).optional(),
      }),
    },
    ({ workflow_run, open_pull_request, environment }) =>
      userMessage('Investigate a failing workflow run', [
        'Start a cloud agent run with create_run whose prompt asks it to find why the workflow run below failed: read its ' +
          'logs, reproduce the failure, and explain the cause.',
        `workflow run = ${quoted(workflow_run)}`,
        open_pull_request === 'yes' ? 'It may open a pull request with the fix.' : 'It proposes a fix without pushing it.',
        environment && `environment = ${quoted(environment)}`,
        'Then follow it with wait_for_run and tell me the cause and the fix.',
      ]),
  );
}
