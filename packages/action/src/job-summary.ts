import * as core from '@actions/core';
import { runSummaryRows, type RunItem } from '@agent-runs/core';
import { escapeRunText, runLinkHtml } from './workflow-text.js';

/** A compact two-column table of the run, under a one-line verdict. */
export function summaryHtml(run: RunItem, headline: string): string {
  const rows = runSummaryRows(run)
    .map(([label, value]) => {
      const cell = label === 'Session' ? runLinkHtml(value) : escapeRunText(value);
      return `<tr><th align="left">${escapeRunText(label)}</th><td>${cell}</td></tr>`;
    })
    .join('');
  return `<h3>Agent run</h3>\n<p>${escapeRunText(headline)}</p>\n<table>${rows}</table>\n`;
}

/** Appends the run to the job summary; a missing summary file is no reason to fail the step. */
export async function writeJobSummary(run: RunItem, headline: string): Promise<void> {
  try {
    await core.summary.addRaw(summaryHtml(run, headline), true).write();
  } catch (error) {
    core.debug(`No job summary written: ${(error as Error).message}`);
  }
}
