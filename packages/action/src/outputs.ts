import * as core from '@actions/core';
import { runDurationMs, type RunItem } from '@agent-runs/core';

/** The step outputs, by name, for a run as last seen. */
export function runOutputs(run: RunItem): Record<string, string> {
  const duration = runDurationMs(run);
  return {
    'run-id': run.run_id,
    state: run.state,
    'session-link': run.session_link ?? '',
    title: run.title,
    'status-message': run.status_message?.message ?? '',
    'duration-seconds': duration === undefined ? '' : String(Math.round(duration / 1000)),
    run: JSON.stringify(run),
  };
}

export function setRunOutputs(run: RunItem): void {
  for (const [name, value] of Object.entries(runOutputs(run))) core.setOutput(name, value);
}
