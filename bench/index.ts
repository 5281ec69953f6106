/**
 * Runs every `bench/*.bench.ts` (or those named on the command line) and prints one table.
 * Each module's default export returns rows; a row compares a measured figure with a
 * baseline measured in the same run, and states the target it is held to.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row.js';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

const rows: BenchRow[] = [];
for (const file of files) {
  process.stderr.write(`running ${basename(file)}...\n`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<BenchRow[]> };
  rows.push(...(await mod.default()));
}

const header = ['suite', 'measure', 'value', 'baseline', 'ratio', 'target', 'met'];
const table = rows.map((r) => [
  r.suite,
  r.measure,
  r.value,
  r.baseline ?? '',
  r.ratio ?? '',
  r.target,
  r.met === undefined ? '' : r.met ? 'yes' : 'NO',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
const line = (cells: string[]) => cells.map((c, i) => String(c).padEnd(widths[i]!)).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table) console.log(line(row as string[]));
