import { Octokit } from '@octokit/rest';

/** How long one call to GitHub's API may take before the run ends without it. */
const API_TIMEOUT_MS = 30_000;

export interface PullRequestToOpen {
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
}

export type OpenResult = { ok: true; url: string; number: number } | { ok: false; detail: string };

/**
 * Opens the pull request through GitHub's REST API. A refusal comes back as words naming what
 * to fix (an expired token, a pull request that exists already), never as a throw or the token.
 */
export async function openPullRequest(pr: PullRequestToOpen): Promise<OpenResult> {
  const octokit = client(pr.apiUrl, pr.token);
  try {
    const { data } = await octokit.rest.pulls.create({ owner: pr.owner, repo: pr.repo, head: pr.head, base: pr.base, title: pr.title, body: pr.body, draft: pr.draft });
    return { ok: true, url: data.html_url, number: data.number };
  } catch (error) {
    return { ok: false, detail: refusal(error).split(pr.token).join('***') };
  }
}

/** GitHub's status and message (and its errors' messages, as a 422 gives them), with what to do. */
function refusal(error: unknown): string {
  const e = error as { status?: number; response?: { data?: { message?: unknown; errors?: { message?: unknown }[] } }; message?: string };
  const status = typeof e.status === 'number' ? e.status : undefined;
  const data = e.response?.data;
  const said = [typeof data?.message === 'string' ? data.message : undefined, ...(data?.errors ?? []).map((x) => (typeof x?.message === 'string' ? x.message : undefined))]
    .filter((x): x is string => !!x)
    .join('; ')
    .slice(0, 300);
  if (status === 401) return `GitHub answered 401 (${said || 'Bad credentials'}): the credential's token is wrong or expired; replace the secret's value.`;
  if (status === 403) return `GitHub answered 403 (${said}): the token may not open pull requests on this repository; give it pull request write access.`;
  if (status === 422) return `GitHub answered 422 (${said}): the branch is pushed; open or update the pull request by hand.`;
  if (status !== undefined) return `GitHub answered ${status} (${said}).`;
  return `GitHub's API could not be reached (${String(e.message ?? error).slice(0, 200)}); check api_url.`;
}

export interface PullRequestComment {
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  number: number;
  body: string;
}

/** Comments on an open pull request (what a follow-up did); a refusal as words, as `openPullRequest` gives them. */
export async function commentOnPullRequest(comment: PullRequestComment): Promise<{ ok: true } | { ok: false; detail: string }> {
  try {
    await client(comment.apiUrl, comment.token).rest.issues.createComment({ owner: comment.owner, repo: comment.repo, issue_number: comment.number, body: comment.body });
    return { ok: true };
  } catch (error) {
    return { ok: false, detail: refusal(error).split(comment.token).join('***') };
  }
}

/** octokit at the API root for one call, quiet (its log would print request details), bounded: a run's end waits on it. */
function client(apiUrl: string, token: string): Octokit {
  return new Octokit({ auth: token, baseUrl: apiUrl, request: { signal: AbortSignal.timeout(API_TIMEOUT_MS) }, log: { debug() {}, info() {}, warn() {}, error() {} } });
}
