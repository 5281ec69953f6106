import { getOctokit } from '@actions/github';
import { runSummaryRows, type RunItem } from '@agent-runs/core';
import { pullRequestNumber, type TitleContext } from './default-title.js';
import { escapeRunText } from './workflow-text.js';

/** Marks the action's comments, for people and for tools that tidy them up. */
export const COMMENT_MARKER = '<!-- agent-runs-action -->';

export interface CommentRequest {
  owner: string;
  repo: string;
  issue_number: number;
  body: string;
}

/** The comment for the pull request that triggered the workflow; undefined when no pull request did. */
export function buildPrComment(
  run: RunItem,
  headline: string,
  context: TitleContext & { owner: string | undefined; repo: string | undefined },
): CommentRequest | undefined {
  const number = pullRequestNumber(context.payload);
  if (!number || !context.owner || !context.repo) return undefined;
  // Every value (and the headline, which quotes the status message) is the run's text: escaped, never markup.
  const rows = runSummaryRows(run).map(([label, value]) => `| ${label} | ${escapeRunText(value)} |`);
  const body = [COMMENT_MARKER, `**Agent run** - ${escapeRunText(headline)}`, '', '| | |', '|---|---|', ...rows].join('\n');
  return { owner: context.owner, repo: context.repo, issue_number: number, body };
}

/** Posts the comment with the workflow's token (GITHUB_API_URL decides where); returns its address. */
export async function postPrComment(token: string, request: CommentRequest): Promise<string> {
  const octokit = getOctokit(token);
  const { data } = await octokit.rest.issues.createComment({ ...request });
  return data.html_url;
}
