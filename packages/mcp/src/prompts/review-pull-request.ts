import { z } from 'zod';
import { completable, type McpServer } from '@modelcontextprotocol/server';
import type { ServerContext } from '../context.js';
import { completeEnvironment } from './completions.js';
import { quoted, userMessage } from './prompt-text.js';

export function registerReviewPullRequestPrompt(server: McpServer, ctx: ServerContext): void {
  server.registerPrompt(
    'review_pull_request',
    {
      title: 'Review a pull request with a cloud agent',
      description: 'Have a cloud agent review a pull request and report what it found.',
      argsSchema: z.object({
        pull_request: z.string().min(1).describe('The pull request URL (or owner/repo#number)'),
        focus: z.string().optional().describe('What to look at most (security, tests, performance…)'),
        environment: completable(z.string().describe('The environment with the repository (name or id)'), completeEnvironment(ctx.client)).optional(),
      }),
    },
    ({ pull_request, focus, environment }) =>
      userMessage('Review a pull request with a cloud agent', [
        'Start a cloud agent run with create_run whose prompt asks it to review the pull request below: read the diff, ' +
          'run the tests, and list concrete problems with file and line, most serious first, without pushing changes.',
        `pull request = ${quoted(pull_request)}`,
        focus && `focus = ${quoted(focus)}`,
        environment && `environment = ${quoted(environment)}`,
        'Then follow it with wait_for_run and give me its findings.',
      ]),
  );
}
