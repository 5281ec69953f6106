import { oneLine } from '../domain/one-line.js';
import type { RepoSource } from '../domain/server-config.js';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import { repoToken } from './github-credential.js';
import { commentOnPullRequest, openPullRequest } from './open-pull-request.js';
import { DEFAULT_AUTHOR, pushRunBranch, runBranchName } from './push-run-branch.js';

/** Longest title (a commit subject, a pull request's title) and quoted failure, in characters. */
const TITLE_CHARS = 200;

/** What a SUCCEEDED run gives to the pull requests of its environment's repositories. */
export interface RunChanges {
  runId: string;
  title: string;
  /** The run's result, for the commit message and the pull request's body. */
  result: string;
  /** Where the run is seen, its cost and tokens: lines of the body. */
  details: string[];
  /** The execution's `changes.patch` (all repositories, each under its directory). */
  patch: string;
  /** The execution's number: past the first, a follow-up's. */
  execution: number;
  /** The pull requests the run's earlier executions opened (their PULL_REQUEST artifacts' `url`). */
  earlier: readonly string[];
}

export interface Published {
  artifacts: NewArtifact[];
  /** One sentence per repository: the pull request opened, or what failed and what to fix. */
  notes: string[];
}

/** The part of a working directory's patch that touches `dir`, its paths made the repository's own. */
export function repoPatch(patch: string, dir: string): string {
  const sections = patch.split(/^(?=diff --git )/m);
  const prefix = dir && dir !== '.' ? `${dir}/` : '';
  const mine = sections.filter((s) => s.startsWith(`diff --git a/${prefix}`));
  if (!prefix) return mine.join('');
  const strip = (text: string) => text.split(`a/${prefix}`).join('a/').split(`b/${prefix}`).join('b/');
  // Only the header lines name paths; the content is left as it is.
  return mine.map((s) => s.replace(/^(diff --git .*|--- .*|\+\+\+ .*)$/gm, strip)).join('');
}

/**
 * Pushes each repository's changes on `agent-runs/<id>` and opens its pull request. A failure
 * keeps the work (the patch stays with the run) and is said, with what to fix; nothing throws.
 */
export async function publishRunChanges(repos: readonly RepoSource[], changes: RunChanges, secret: (name: string) => string | undefined): Promise<Published> {
  const published: Published = { artifacts: [], notes: [] };
  const branch = runBranchName(changes.runId);
  for (const repo of repos) {
    const settings = repo.pullRequests;
    if (!settings) continue;
    const patch = repoPatch(changes.patch, repo.path);
    if (!patch.trim()) continue;
    const name = `${repo.owner}/${repo.repo}`;
    const credential = await repoToken(settings.credential, secret, { apiUrl: settings.apiUrl, owner: repo.owner, repo: repo.repo });
    if (!credential.ok) {
      published.notes.push(`No pull request for ${name}: ${credential.detail}; the changes are kept in changes.patch.`);
      continue;
    }
    const token = credential.token;
    const title = oneLine(changes.title, TITLE_CHARS) || `Changes of run ${changes.runId}`;
    const pushed = await pushRunBranch({
      url: repo.url,
      base: settings.base,
      branch,
      patch,
      message: `${title}\n\n${changes.result}`.trim(),
      author: settings.author ?? DEFAULT_AUTHOR,
      token,
    });
    if (!pushed.ok) {
      published.notes.push(`No pull request for ${name}: the ${pushed.step} failed (${oneLine(pushed.detail, TITLE_CHARS)}); the changes are kept in changes.patch.`);
      continue;
    }
    const open = earlierPullRequest(changes.earlier, repo);
    if (open) {
      // A follow-up's commit updates the pull request already open; a comment says what it did.
      const commented = await commentOnPullRequest({
        apiUrl: settings.apiUrl,
        token,
        owner: repo.owner,
        repo: repo.repo,
        number: open.number,
        body: [`Follow-up (execution ${changes.execution}) pushed to ${branch}:`, '', quietMentions(changes.result), '', ...changes.details].join('\n').trim(),
      });
      published.notes.push(commented.ok ? `Pull request updated: ${open.url}` : `Pull request ${open.url} updated, but not commented on: ${commented.detail}`);
      continue;
    }
    const opened = await openPullRequest({
      apiUrl: settings.apiUrl,
      token,
      owner: repo.owner,
      repo: repo.repo,
      head: branch,
      base: pushed.base,
      title,
      body: [quietMentions(changes.result), '', ...changes.details].join('\n').trim(),
      draft: settings.mode === 'draft',
    });
    if (!opened.ok) {
      published.notes.push(`Branch ${branch} pushed to ${name}, but no pull request: ${opened.detail}`);
      continue;
    }
    // `draft` (our extension of the artifact's data): how it was opened, shown beside its link.
    published.artifacts.push({ type: 'PULL_REQUEST', data: { url: opened.url, branch, draft: settings.mode === 'draft' } });
    published.notes.push(`Pull request opened: ${opened.url}`);
  }
  return published;
}

/** The pull request an earlier execution opened on this repository: its URL ends in `/<owner>/<repo>/pull/<number>`. */
function earlierPullRequest(urls: readonly string[], repo: RepoSource): { url: string; number: number } | undefined {
  for (const url of urls) {
    const found = /\/([^/]+)\/([^/]+)\/pull\/(\d+)$/.exec(url);
    if (found && found[1]!.toLowerCase() === repo.owner.toLowerCase() && found[2]!.toLowerCase() === repo.repo.toLowerCase()) return { url, number: Number(found[3]) };
  }
  return undefined;
}

/**
 * The agent's words in a pull request or comment without the mentions GitHub acts on: `@name`
 * would notify people and teams the run's author never chose to (a zero-width space after the
 * `@` keeps the text as it reads).
 */
export function quietMentions(text: string): string {
  return text.replace(/@(?=[A-Za-z0-9])/g, '@\u200b');
}
