import type { StoredRunEvent } from '../store/run-event-store.js';

/**
 * What a session page's stream may carry: the run's state, status, times and artifacts,
 * and the output the page shows anyway; not the configuration (MCP env values, headers).
 */
export function sessionView(event: StoredRunEvent): string | undefined {
  if (event.kind === 'output') return event.data;
  if (event.kind !== 'run') return event.kind === 'artifact' ? event.data : undefined;
  const run = JSON.parse(event.data) as Record<string, unknown>;
  const view: Record<string, unknown> = {};
  for (const key of ['run_id', 'title', 'state', 'status_message', 'started_at', 'updated_at', 'artifacts']) {
    if (run[key] !== undefined) view[key] = run[key];
  }
  return JSON.stringify(view);
}
