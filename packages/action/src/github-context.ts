import { context } from '@actions/github';
import type { TitleContext } from './default-title.js';

/** The workflow's context as the title, the pull request comment and the trigger check need it. */
export function readGitHubContext(): TitleContext & { owner: string | undefined; repo: string | undefined; eventName: string; actor: string } {
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
    eventName: context.eventName ?? '',
    actor: context.actor ?? '',
  };
}
