import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { request } from '@octokit/request';
import type { PullRequestCredential } from '../domain/server-config.js';

/** How long one exchange with GitHub's API may take. */
const API_TIMEOUT_MS = 30_000;

export type RepoToken = { ok: true; token: string } | { ok: false; detail: string };

export interface CredentialTarget {
  apiUrl: string;
  owner: string;
  repo: string;
}

/**
 * The token a push and the pull request use for one repository: a declared token as it is,
 * or, for a GitHub App, an installation token minted for this repository alone (the App's
 * key signs a JWT and never leaves the server). A failure is words naming what to fix.
 */
export async function repoToken(credential: PullRequestCredential, secret: (name: string) => string | undefined, target: CredentialTarget): Promise<RepoToken> {
  if (credential.kind === 'token') {
    const token = secret(credential.secret);
    return token ? { ok: true, token } : { ok: false, detail: `the secret ${credential.secret} has no value; set it` };
  }
  const privateKey = secret(credential.privateKey);
  if (!privateKey) return { ok: false, detail: `the secret ${credential.privateKey} (the GitHub App's private key) has no value; set it` };
  try {
    const auth = createAppAuth({
      appId: credential.appId,
      privateKey,
      request: request.defaults({ baseUrl: target.apiUrl, request: { signal: AbortSignal.timeout(API_TIMEOUT_MS) } }),
    });
    const installationId = credential.installationId ?? (await installationOf(auth, target));
    const minted = await auth({ type: 'installation', installationId, repositoryNames: [target.repo] });
    return { ok: true, token: minted.token };
  } catch (error) {
    return { ok: false, detail: `the GitHub App ${credential.appId} could not get a token for ${target.owner}/${target.repo}: ${said(error).split(privateKey).join('***')}` };
  }
}

/** The App's installation on the repository, asked with the App's own JWT. */
async function installationOf(auth: ReturnType<typeof createAppAuth>, target: CredentialTarget): Promise<number> {
  const { token: jwt } = await auth({ type: 'app' });
  const octokit = new Octokit({ auth: jwt, baseUrl: target.apiUrl, request: { signal: AbortSignal.timeout(API_TIMEOUT_MS) }, log: { debug() {}, info() {}, warn() {}, error() {} } });
  const { data } = await octokit.rest.apps.getRepoInstallation({ owner: target.owner, repo: target.repo });
  return data.id;
}

/** GitHub's status and message, or the library's; never a stack. */
function said(error: unknown): string {
  const e = error as { status?: number; response?: { data?: { message?: unknown } }; message?: unknown };
  const message = typeof e.response?.data?.message === 'string' ? e.response.data.message : String(e.message ?? error);
  const hint = e.status === 404 ? ' (is the App installed on this repository?)' : e.status === 401 ? ' (check app_id and the private key)' : '';
  return `${e.status ? `GitHub answered ${e.status}: ` : ''}${message.slice(0, 300)}${hint}`;
}
