import * as core from '@actions/core';
import { runSummaryRows, type RunItem, type RunTreeNode } from '@agent-runs/core';
import { childrenHtml } from './run-children.js';
import type { ArtifactLink } from './artifact-links.js';
import { escapeRunText, runLinkHtml } from './workflow-text.js';

/** The artifacts as a list: type, name, and a link where it has one (all of it run text, escaped). */
function artifactsHtml(artifacts: readonly ArtifactLink[]): string {
  if (artifacts.length === 0) return '';
  const items = artifacts
    .map((a) => {
      const link = a.url ? ` ${runLinkHtml(a.url)}` : '';
      const expires = a.expiresAt ? ` (link expires ${escapeRunText(a.expiresAt)})` : '';
      return `<li>${escapeRunText(a.type)}: ${escapeRunText(a.name)}${link}${expires}</li>`;
    })
    .join('');
  return `<h4>Artifacts</h4>\n<ul>${items}</ul>\n`;
}

/** The last lines of the agent's output (escaped already for the terminal; here for HTML). */
function outputHtml(outputTail: readonly string[]): string {
  if (outputTail.length === 0) return '';
  return `<details open><summary>Last ${outputTail.length} lines of agent output</summary>\n<pre>${outputTail.map((line) => escapeRunText(line)).join('\n')}</pre>\n</details>\n`;
}

/** A compact two-column table of the run, under a one-line verdict; then its artifacts, the runs it started and the last lines of output. */
export function summaryHtml(run: RunItem, headline: string, artifacts: readonly ArtifactLink[] = [], outputTail: readonly string[] = [], children?: RunTreeNode): string {
  const rows = runSummaryRows(run)
    .map(([label, value]) => {
      const cell = label === 'Session' ? runLinkHtml(value) : escapeRunText(value);
      return `<tr><th align="left">${escapeRunText(label)}</th><td>${cell}</td></tr>`;
    })
    .join('');
  return `<h3>Agent run</h3>\n<p>${escapeRunText(headline)}</p>\n<table>${rows}</table>\n${artifactsHtml(artifacts)}${childrenHtml(children)}${outputHtml(outputTail)}`;
}

/** Appends the run to the job summary; a missing summary file is no reason to fail the step. */
export async function writeJobSummary(
  run: RunItem,
  headline: string,
  artifacts: readonly ArtifactLink[] = [],
  outputTail: readonly string[] = [],
  children?: RunTreeNode,
): Promise<void> {
  try {
    await core.summary.addRaw(summaryHtml(run, headline, artifacts, outputTail, children), true).write();
  } catch (error) {
    core.debug(`No job summary written: ${(error as Error).message}`);
  }
}
