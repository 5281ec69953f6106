import { runHeadline, runSummaryRows, visibleText, type RunItem } from '@agent-runs/core';
import type { Paint } from './colors.js';

function headline(run: RunItem, paint: Paint): string {
  return paint.bold(visibleText(runHeadline(run)));
}

function rowsToText(rows: Array<[string, string]>, paint: Paint): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, text]) => {
    // Values come from the server: control characters are shown, never sent to the terminal.
    const value = visibleText(text);
    const shown = label === 'State' ? paint.state(value) : label === 'Session' ? paint.cyan(value) : value;
    return `  ${paint.dim(label.padEnd(width))}  ${shown}`;
  });
}

/** The short summary after a wait: a sentence, then core's summary rows. */
export function renderRunSummary(run: RunItem, paint: Paint): string {
  return [headline(run, paint), ...rowsToText(runSummaryRows(run), paint).slice(1)].join('\n') + '\n';
}

/** Everything `get` shows: the summary rows, then who, where and when. */
export function renderRunDetails(run: RunItem, paint: Paint): string {
  const rows = runSummaryRows(run);
  const more: Array<[string, string]> = [];
  if (run.source) more.push(['Source', run.source]);
  const creator = run.creator?.display_name ?? run.creator?.email ?? run.creator?.uid;
  if (creator) more.push(['Creator', creator]);
  const config = run.agent_config;
  if (config?.name) more.push(['Name', config.name]);
  if (config?.environment_id) more.push(['Environment', config.environment_id]);
  if (config?.skill_spec) more.push(['Skill', config.skill_spec]);
  if (config?.mcp_servers) more.push(['MCP servers', Object.keys(config.mcp_servers).join(', ')]);
  more.push(['Created', run.created_at]);
  if (run.started_at) more.push(['Started', run.started_at]);
  more.push(['Updated', run.updated_at]);
  more.push(['Prompt', run.prompt.replace(/\s+/g, ' ')]);
  return [headline(run, paint), ...rowsToText([...rows, ...more], paint).slice(1)].join('\n') + '\n';
}
