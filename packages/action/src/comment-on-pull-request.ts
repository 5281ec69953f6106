import * as core from '@actions/core';
import type { RunItem } from '@agent-runs/core';
import type { readGitHubContext } from './github-context.js';
import { buildPrComment, postPrComment } from './pr-comment.js';
import { logRunText } from './workflow-text.js';

/** Posts the outcome on the triggering pull request; a comment that cannot be posted only warns. */
export async function commentOnPullRequest(
  token: string,
  run: RunItem,
  headline: string,
  github: ReturnType<typeof readGitHubContext>,
): Promise<void> {
  const request = buildPrComment(run, headline, github);
  if (!request) {
    core.info('Not commenting: this workflow was not triggered by a pull request.');
    return;
  }
  try {
    core.setSecret(token);
    const url = await postPrComment(token, request);
    logRunText(`Commented on pull request #${request.issue_number}: ${url}`);
  } catch (error) {
    const status = (error as { status?: number }).status;
    core.warning(
      `Could not comment on pull request #${request.issue_number}${status ? ` (${status})` : ''}: ${(error as Error).message}. ` +
        'Check that "github-token" may write pull requests (permissions: pull-requests: write).',
    );
  }
}
