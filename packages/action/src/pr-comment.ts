import { getOctokit } from '@actions/github';
import { runSummaryRows, type RunItem } from '@agent-runs/core';
import { pullRequestNumber, type TitleContext } from './default-title.js';

/** Marks the action's comments, for people and for tools that tidy them up. */
export const COMMENT_MARKER = '<!-- agent-runs-action -->';

export interface CommentRequest {
  owner: string;
  repo: string;
  issue_number: number;
  body: string;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** The comment for the pull request that triggered the workflow; undefined when no pull request did. */
export function buildPrComment(
  run: RunItem,
  headline: string,
  context: TitleContext & { owner: string | undefined; repo: string | undefined },
): CommentRequest | undefined {
  const number = pullRequestNumber(context.payload);
  if (!number || !context.owner || !context.repo) return undefined;
  const rows = runSummaryRows(run).map(([label, value]) => `| ${label} | ${cell(value)} |`);
  const body = [COMMENT_MARKER, `**Agent run** - ${headline}`, '', '| | |', '|---|---|', ...rows].join('\n');
  return { owner: context.owner, repo: context.repo, issue_number: number, body };
}

/** Posts the comment with the workflow's token (GITHUB_API_URL decides where); returns its address. */
export async function postPrComment(token: string, request: CommentRequest): Promise<string> {
  const octokit = getOctokit(token);
  const { data } = await octokit.rest.issues.createComment({ ...request });
  return data.html_url;
}
