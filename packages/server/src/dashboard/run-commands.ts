import type { RunItem } from '@agent-runs/core/contract';

/** The request that made a run, as far as the run shows it: what "run again" sends. */
export function requestOf(run: RunItem): Record<string, unknown> {
  const request: Record<string, unknown> = { prompt: run.prompt, title: run.title };
  if (run.agent_config && Object.keys(run.agent_config).length) request.config = run.agent_config;
  if (run.metadata && Object.keys(run.metadata).length) request.metadata = run.metadata;
  return request;
}

/** A word for a POSIX shell: single-quoted, quotes inside closed and reopened. */
const sh = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function asCommand(run: RunItem): string {
  const parts = ['agent-runs', 'run', sh(run.prompt), '--title', sh(run.title)];
  const model = run.agent_config?.model_id ?? run.agent_config?.harness?.model_id;
  if (model) parts.push('--model', sh(model));
  if (run.agent_config?.environment_id) parts.push('--environment', sh(run.agent_config.environment_id));
  return parts.join(' ');
}

export function asCurl(run: RunItem, baseUrl: string): string {
  return [
    `curl -sS -X POST ${sh(`${baseUrl}/api/v1/agent/runs`)}`,
    `  -H "Authorization: Bearer $AGENT_RUNS_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${sh(JSON.stringify(requestOf(run)))}`,
  ].join(' \\\n');
}

/** YAML block scalar lines, indented. */
const block = (text: string, indent: string) => text.split('\n').map((line) => `${indent}${line}`).join('\n');

export function asWorkflowStep(run: RunItem, baseUrl: string): string {
  const lines = ['- uses: agent-runs/agent-runs@v1', '  with:', '    prompt: |', block(run.prompt, '      '), `    title: ${JSON.stringify(run.title)}`];
  const model = run.agent_config?.model_id ?? run.agent_config?.harness?.model_id;
  if (model) lines.push(`    model: ${JSON.stringify(model)}`);
  if (run.agent_config?.environment_id) lines.push(`    environment: ${JSON.stringify(run.agent_config.environment_id)}`);
  lines.push(`    base-url: ${JSON.stringify(baseUrl)}`, '    api-key: ${{ secrets.AGENT_RUNS_API_KEY }}');
  return lines.join('\n');
}
