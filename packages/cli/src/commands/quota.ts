import { visibleText, type PrincipalQuotaResponse } from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { renderTable } from '../render/aligned-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { noArguments } from './no-arguments.js';

/** Dollars as a person reads them: cents, or four significant digits below a cent. */
function usd(amount: number): string {
  return amount >= 0.01 || amount === 0 ? `$${amount.toFixed(2)}` : `$${Number(amount.toPrecision(4))}`;
}

/** A wait in seconds, shortly: `42 s`, `17 min`, `3 h 5 min`. */
function inTime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function rows(quota: PrincipalQuotaResponse, now: number): string[][] {
  const limit = (value: number | null) => (value === null ? 'none' : String(value));
  const perMinute = quota.creates_per_minute;
  const spend = quota.spend_today;
  const resetIn = Math.max(0, Math.ceil((Date.parse(spend.resets_at) - now) / 1000));
  // Every cell comes from the server; renderTable shows control characters as visible text.
  return [
    ['runs_in_flight', String(quota.runs_in_flight.used), limit(quota.runs_in_flight.limit), ''],
    ['runs_queued', String(quota.runs_queued.used), limit(quota.runs_queued.limit), ''],
    ['creates_per_minute', String(perMinute.used), limit(perMinute.limit), perMinute.resets_in_seconds === null ? '' : `in ${inTime(perMinute.resets_in_seconds)}`],
    ['spend_per_day_usd', usd(spend.spent_usd), spend.limit_usd === null ? 'none' : usd(spend.limit_usd), `${spend.resets_at} (in ${inTime(resetIn)})`],
  ];
}

export const quotaCommand: Command = {
  name: 'quota',
  summary: "Show your quotas and your use of them: runs in flight and queued, creates per minute, spend today",
  usage: '[flags]',
  description:
    "Show the calling principal's quotas (the server's quotas: section) and where it stands against each now:\n" +
    'runs in progress and queued, runs created in the last minute, and dollars spent this UTC day against\n' +
    'spend_per_day_usd (at the cap, new runs are refused until it resets at UTC midnight).',
  positionals: true,
  usesApi: true,
  flags: { json: { type: 'boolean', description: 'Print the server\'s answer (GET /agent/quota) as JSON' } },
  examples: ['$0 quota', '$0 quota --json | jq .spend_today.spent_usd'],
  async run(flags, ctx) {
    noArguments(flags);
    const quota = await ctx.client().quota.retrieve();
    if (flags.bool('json')) {
      writeJson(ctx.io.stdout, quota);
      return EXIT.OK;
    }
    const headers = ['QUOTA', 'USED', 'LIMIT', 'RESETS'];
    const table = renderTable(headers, rows(quota, Date.now()), paintFor(ctx.io.stdout, ctx.io.env));
    const who = quota.principal === null ? '' : `Principal ${visibleText(quota.principal)}, UTC day ${visibleText(quota.spend_today.day)}:\n`;
    ctx.io.stdout.write(`${who}${table}`);
    return EXIT.OK;
  },
};
