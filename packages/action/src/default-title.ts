/** The parts of @actions/github's context a title is made from. */
export interface TitleContext {
  workflow: string | undefined;
  payload: { pull_request?: { number?: number }; issue?: { number?: number; pull_request?: unknown } };
  /** `owner/repo`, when known. */
  repository: string | undefined;
}

/** The pull request that triggered the workflow (pull_request events and comments on a PR). */
export function pullRequestNumber(payload: TitleContext['payload']): number | undefined {
  if (payload.pull_request?.number) return payload.pull_request.number;
  if (payload.issue?.pull_request && payload.issue.number) return payload.issue.number;
  return undefined;
}

/**
 * A title that says where a run came from: `acme/web · Nightly triage · PR #42`.
 * Undefined when the context says nothing, so the server names the run from the prompt.
 */
export function defaultTitle(context: TitleContext): string | undefined {
  const pr = pullRequestNumber(context.payload);
  const parts = [context.repository, context.workflow, pr ? `PR #${pr}` : undefined].filter(
    (part): part is string => Boolean(part && part.trim()),
  );
  return parts.length > 0 ? parts.join(' · ') : undefined;
}
