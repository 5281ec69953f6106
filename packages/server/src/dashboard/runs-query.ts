/** The filters of the runs view, as its URL carries them (so a view can be shared). */
export const RUN_FILTERS = ['state', 'source', 'environment_id', 'schedule_id', 'creator', 'q', 'from', 'to'] as const;
export const RUNS_PAGE_SIZE = 25;

/** The dashboard URL's filters as the list query of the API (`GET /agent/runs`), newest first. */
export function apiListParams(url: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams({ sort_by: 'created_at', sort_order: 'desc', limit: String(RUNS_PAGE_SIZE) });
  for (const name of RUN_FILTERS) {
    const value = url.get(name)?.trim();
    if (!value) continue;
    // Dates from the date inputs: a whole day, in UTC.
    if (name === 'from') out.set('created_after', /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
    else if (name === 'to') out.set('created_before', /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : value);
    else out.set(name, value);
  }
  const cursor = url.get('cursor');
  if (cursor) out.set('cursor', cursor);
  return out;
}

/** The runs view's own URL with `cursor` set (or cleared). */
export function withCursor(url: URLSearchParams, cursor: string | undefined): string {
  const out = new URLSearchParams();
  for (const name of RUN_FILTERS) {
    const value = url.get(name);
    if (value) out.set(name, value);
  }
  if (cursor) out.set('cursor', cursor);
  const text = out.toString();
  return text ? `/?${text}` : '/';
}
