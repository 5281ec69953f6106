import { context } from '@actions/github';
import type { TitleContext } from './default-title.js';

/** The workflow's context as the title and the pull request comment need it. */
export function readGitHubContext(): TitleContext & { owner: string | undefined; repo: string | undefined } {
  let owner: string | undefined;
  let repo: string | undefined;
  try {
    ({ owner, repo } = context.repo);
  } catch {
    // Outside a workflow there is no repository; the title simply leaves it out.
  }
  return {
    workflow: context.workflow,
    payload: context.payload,
    repository: owner && repo ? `${owner}/${repo}` : undefined,
    owner,
    repo,
  };
}
