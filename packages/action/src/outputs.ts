import * as core from '@actions/core';
import { firstPullRequest, runArtifacts, runDurationMs, type RunItem } from '@agent-runs/core';

/** The step outputs, by name, for a run as last seen. */
export function runOutputs(run: RunItem): Record<string, string> {
  const duration = runDurationMs(run);
  const pullRequest = firstPullRequest(runArtifacts(run));
  return {
    'run-id': run.run_id,
    state: run.state,
    'session-link': run.session_link ?? '',
    title: run.title,
    'status-message': run.status_message?.message ?? '',
    'duration-seconds': duration === undefined ? '' : String(Math.round(duration / 1000)),
    run: JSON.stringify(run),
    'pr-url': pullRequest?.url ?? '',
    'pr-branch': pullRequest?.branch ?? '',
    artifacts: JSON.stringify(runArtifacts(run)),
    result: run.status_message?.message ?? '',
    'cost-usd': run.request_usage?.inference_cost_usd === undefined ? '' : String(run.request_usage.inference_cost_usd),
    'total-tokens': run.request_usage?.total_tokens === undefined ? '' : String(run.request_usage.total_tokens),
  };
}

export function setRunOutputs(run: RunItem): void {
  for (const [name, value] of Object.entries(runOutputs(run))) core.setOutput(name, value);
}
