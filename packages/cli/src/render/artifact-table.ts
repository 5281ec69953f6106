import { summarizeArtifact, visibleText, type ArtifactItem } from '@agent-runs/core';
import type { Paint } from './colors.js';

const HEADERS = ['TYPE', 'NAME', 'UID OR URL', 'SIZE'] as const;

/** Bytes as `512 B`, `4.2 KiB`, `13.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A run's artifacts as aligned columns; every cell comes from the run, so it is shown escaped. */
export function renderArtifactTable(artifacts: readonly ArtifactItem[], paint: Paint): string {
  const rows = artifacts.map((artifact) => {
    const a = summarizeArtifact(artifact);
    return [a.type, a.name, a.uid ?? a.url ?? '-', a.sizeBytes !== undefined ? formatBytes(a.sizeBytes) : '-'].map((cell) => visibleText(cell));
  });
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[], style: (cell: string) => string) =>
    cells.map((cell, i) => style(cell) + (i < cells.length - 1 ? ' '.repeat(widths[i]! - cell.length + 2) : '')).join('').trimEnd();
  return [line(HEADERS, (c) => paint.bold(c)), ...rows.map((row) => line(row, (c) => c))].join('\n') + '\n';
}
