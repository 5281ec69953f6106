import type { StoredRunEvent } from '../store/run-events/run-event-store.js';
import { artifactLabel } from './artifact-label.js';

/**
 * What a session page's stream may carry: the run's state, status, times and artifacts,
 * and the output the page shows anyway; not the configuration (MCP env values, headers).
 * Artifacts come as the page's one-line labels.
 */
export function sessionView(event: StoredRunEvent): string | undefined {
  if (event.kind === 'output') return event.data;
  if (event.kind !== 'run') return undefined;
  const run = JSON.parse(event.data) as Record<string, unknown>;
  const view: Record<string, unknown> = {};
  for (const key of ['run_id', 'title', 'state', 'status_message', 'started_at', 'updated_at']) {
    if (run[key] !== undefined) view[key] = run[key];
  }
  view.artifacts = Array.isArray(run.artifacts) ? run.artifacts.map(artifactLabel) : [];
  return JSON.stringify(view);
}
