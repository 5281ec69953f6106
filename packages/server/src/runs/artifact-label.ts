/** One line for an artifact on the session page: its type and the first name it has (`PULL_REQUEST: https://…`). */
export function artifactLabel(item: unknown): string {
  const { artifact_type: type, data } = (item ?? {}) as { artifact_type?: unknown; data?: Record<string, unknown> };
  const name = ['title', 'filename', 'url', 'description', 'branch']
    .map((key) => data?.[key])
    .find((value): value is string => typeof value === 'string' && value !== '');
  return `${typeof type === 'string' ? type : 'ARTIFACT'}${name ? `: ${name}` : ''}`;
}
