import { visibleText, type RunItem } from '@agent-runs/core';
import type { Paint } from './colors.js';
import { timeAgo } from './time-ago.js';

const HEADERS = ['RUN ID', 'STATE', 'SOURCE', 'UPDATED', 'TITLE'] as const;

function fit(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

/**
 * Runs as aligned columns. Ids are shown in full (they are what the other commands take);
 * on a terminal the title is cut to the width, in a pipe it is kept whole.
 */
export function renderRunTable(runs: readonly RunItem[], paint: Paint, columns: number | undefined, now = Date.now()): string {
  // Every cell comes from the server: control characters are shown, never sent to the terminal.
  const rows = runs.map((run) =>
    [run.run_id, run.state, run.source ?? '-', timeAgo(run.updated_at, now), run.title].map((cell) => visibleText(cell)),
  );
  const widths = HEADERS.slice(0, -1).map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  const fixed = widths.reduce((sum, w) => sum + w + 2, 0);
  const titleWidth = columns ? Math.max(10, columns - fixed) : Number.POSITIVE_INFINITY;
  const line = (cells: readonly string[], style: (cell: string, i: number) => string) =>
    cells
      .map((cell, i) => {
        if (i === cells.length - 1) return style(fit(cell, titleWidth), i);
        return style(cell, i) + ' '.repeat(widths[i]! - cell.length + 2);
      })
      .join('')
      .trimEnd();
  const head = line(HEADERS, (cell) => paint.bold(cell));
  const body = rows.map((row) => line(row, (cell, i) => (i === 1 ? paint.state(cell) : i === 3 ? paint.dim(cell) : cell)));
  return [head, ...body].join('\n') + '\n';
}
