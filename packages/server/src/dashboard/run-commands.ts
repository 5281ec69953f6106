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

/** The run's choices a command or a workflow step can name: harness, model, environment, skill. */
function choicesOf(run: RunItem): [string, string][] {
  const config = run.agent_config ?? {};
  const out: [string, string][] = [];
  if (config.harness?.type) out.push(['harness', config.harness.type]);
  const model = config.harness?.model_id ?? config.model_id;
  if (model) out.push(['model', model]);
  if (config.environment_id) out.push(['environment', config.environment_id]);
  if (typeof config.skill_spec === 'string' && config.skill_spec) out.push(['skill', config.skill_spec]);
  return out;
}

/** The command of the CLI that starts the same run on this server (the key comes from AGENT_RUNS_API_KEY). */
export function asCommand(run: RunItem, baseUrl: string): string {
  const parts = ['agent-runs', 'run', sh(run.prompt), '--title', sh(run.title)];
  for (const [flag, value] of choicesOf(run)) parts.push(`--${flag}`, sh(value));
  parts.push('--base-url', sh(`${baseUrl}/api/v1`));
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

/** Run text as a workflow sees it: `${{` opens an expression there, so it is written as an expression of the literal. */
const literal = (text: string) => text.replaceAll('${{', "${{ '${{' }}");

/** YAML block scalar lines, indented. */
const block = (text: string, indent: string) => literal(text).split('\n').map((line) => `${indent}${line}`).join('\n');

export function asWorkflowStep(run: RunItem, baseUrl: string): string {
  const lines = ['- uses: agent-runs/agent-runs@v1', '  with:', '    prompt: |', block(run.prompt, '      '), `    title: ${JSON.stringify(literal(run.title))}`];
  for (const [input, value] of choicesOf(run)) lines.push(`    ${input}: ${JSON.stringify(value)}`);
  lines.push(`    base-url: ${JSON.stringify(`${baseUrl}/api/v1`)}`, '    api-key: ${{ secrets.AGENT_RUNS_API_KEY }}');
  return lines.join('\n');
}
