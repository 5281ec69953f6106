import type { z } from 'zod';

/** One problem with a request: where (`config.mcp_servers.gh`, '' for the whole value) and what. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** `config.mcp_servers.github` for a zod issue path; the root is named after the value. */
export function issuePath(path: readonly PropertyKey[], root = 'body'): string {
  if (path.length === 0) return root;
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join('');
}

/** The problems of a failed parse, one per field; an unknown member is its own issue. */
export function validationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: issuePath([...issue.path, key], ''), message: 'is not a known field' }));
    }
    return [{ path: issuePath(issue.path, ''), message: issue.message }];
  });
}

/** One line per issue, `path: message`; the whole value is called `root`. */
export function describeIssues(issues: readonly ValidationIssue[], root = 'body'): string[] {
  return issues.map((issue) => `${issue.path || root}: ${issue.message}`);
}

/** One line per problem, each naming the field and what would be valid. */
export function formatIssues(error: z.ZodError, root = 'body'): string[] {
  return describeIssues(validationIssues(error), root);
}

/** A field path → the name a user typed for it: a flag, an Action input, a tool argument. */
export type IssueNames = Readonly<Record<string, string>>;

/**
 * Renames issue paths to an adapter's own names, by the longest known prefix:
 * with `{ 'config.model_id': '--model', 'config.mcp_servers': '--mcp' }`,
 * `config.mcp_servers.gh` becomes `--mcp.gh` and `state[1]` (for `state: '--state'`)
 * becomes `--state`. Paths with no name keep their field name.
 */
export function nameIssues(issues: readonly ValidationIssue[], names: IssueNames): ValidationIssue[] {
  const known = Object.keys(names).sort((a, b) => b.length - a.length);
  return issues.map((issue) => {
    const match = known.find((k) => issue.path === k || issue.path.startsWith(`${k}.`) || issue.path.startsWith(`${k}[`));
    if (match === undefined) return issue;
    // `--state[1]` reads worse than `--state`: the value is quoted in the message anyway.
    const rest = issue.path.slice(match.length).replace(/^\[\d+\]$/, '');
    return { path: `${names[match]}${rest}`, message: issue.message };
  });
}
