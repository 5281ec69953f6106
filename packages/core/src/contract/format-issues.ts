import type { z } from 'zod';

/** `config.mcp_servers.github` for a zod issue path; the root is named after the value. */
export function issuePath(path: readonly PropertyKey[], root = 'body'): string {
  if (path.length === 0) return root;
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join('');
}

/** One line per problem, each naming the field and what would be valid. */
export function formatIssues(error: z.ZodError, root = 'body'): string[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `${issuePath(issue.path, root)}: unknown field(s) ${issue.keys.join(', ')}`;
    }
    return `${issuePath(issue.path, root)}: ${issue.message}`;
  });
}
