import { runArtifacts, visibleText, type AgentRunsClient, type ArtifactItem } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { renderArtifactTable } from '../render/artifact-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { runIdArgument } from './run-id-argument.js';

const isPlan = (artifact: ArtifactItem): boolean => artifact.artifact_type === 'PLAN';
const dataOf = (artifact: ArtifactItem) => (artifact.data ?? {}) as Record<string, unknown>;

/** A run lists a plan by its title: its text comes from `artifacts.get`, so each plan is fetched by its uid. */
async function withPlanText(client: AgentRunsClient, artifacts: ArtifactItem[]): Promise<ArtifactItem[]> {
  return Promise.all(
    artifacts.map(async (artifact) => {
      const uid = dataOf(artifact).artifact_uid;
      if (!isPlan(artifact) || typeof uid !== 'string') return artifact;
      const full = await client.artifacts.get(uid);
      return { ...artifact, data: { ...dataOf(artifact), ...(full.data as Record<string, unknown>) } } as ArtifactItem;
    }),
  );
}

const planText = (plan: ArtifactItem): string => {
  const { content } = dataOf(plan);
  if (typeof content !== 'string') return '';
  // The agent wrote it: shown with its line breaks, never with a control sequence acted on.
  const shown = visibleText(content, { multiline: true });
  return shown.endsWith('\n') ? shown : `${shown}\n`;
};

export const artifactsCommand: Command = {
  name: 'artifacts',
  summary: 'List what a run produced',
  usage: '<run-id> [flags]',
  description:
    'List a run’s artifacts: pull requests, plans, files, screenshots, references. Fetch files with\n' +
    '"download"; print a plan’s text with --plan.',
  positionals: true,
  usesApi: true,
  flags: {
    json: { type: 'boolean', description: 'Print the artifacts as the API returns them, as JSON, each plan with its text (content)' },
    plan: { type: 'boolean', description: 'Print the text of the run’s plans (Markdown), and nothing else' },
  },
  examples: [
    '$0 artifacts 6f1c2a9e-…',
    '$0 artifacts 6f1c2a9e-… --plan',
    '$0 artifacts 6f1c2a9e-… --json | jq -r \'.[] | select(.artifact_type=="PULL_REQUEST") | .data.url\'',
  ],
  async run(flags, ctx) {
    const runId = runIdArgument(flags);
    const client = ctx.client();
    const run = await client.runs.get(runId);
    const artifacts = runArtifacts(run);
    if (flags.bool('plan')) {
      const plans = (await withPlanText(client, artifacts.filter(isPlan))).map(planText);
      if (plans.length === 0) ctx.io.stderr.write(`Run ${run.run_id} has no plan (yet).\n`);
      // Several plans are told apart by a rule, as Markdown would show it.
      ctx.io.stdout.write(plans.join('\n---\n\n'));
      return EXIT.OK;
    }
    if (flags.bool('json')) writeJson(ctx.io.stdout, await withPlanText(client, artifacts));
    else if (artifacts.length === 0) ctx.io.stderr.write(`Run ${run.run_id} has no artifacts (yet).\n`);
    else {
      ctx.io.stdout.write(renderArtifactTable(artifacts, paintFor(ctx.io.stdout, ctx.io.env)));
      const target = ctx.targetFlags ? ` ${ctx.targetFlags}` : '';
      if (artifacts.some(isPlan)) ctx.io.stderr.write(`Read the plan with: ${ctx.invocation}${target} artifacts ${run.run_id} --plan\n`);
    }
    return EXIT.OK;
  },
};
