import { visibleText } from '@agent-runs/core';
import type { Paint } from './colors.js';

/** Rows under bold headers in aligned columns; every cell comes from the server, so it is made visible text. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], paint: Paint): string {
  const cells = rows.map((row) => row.map((cell) => visibleText(cell).replace(/\s+/g, ' ')));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[], style: (cell: string) => string) =>
    row.map((cell, i) => style(cell) + (i < row.length - 1 ? ' '.repeat(widths[i]! - cell.length + 2) : '')).join('').trimEnd();
  return [line(headers, (c) => paint.bold(c)), ...cells.map((row) => line(row, (c) => c))].join('\n') + '\n';
}
