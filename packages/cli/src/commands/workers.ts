import { visibleText, type ConnectedWorker } from '@agent-runs/core';
import type { Command, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { renderTable } from '../render/aligned-table.js';
import { paintFor } from '../render/colors.js';
import { writeJson } from '../render/json-output.js';
import { timeAgo } from '../render/time-ago.js';
import { noArguments } from './no-arguments.js';

/** The server a worker connects to: the API's base URL without its `/api/v1`. */
function serverUrl(baseURL: string): string {
  return baseURL.replace(/\/api\/v1\/?$/, '');
}

/** What to run to connect a worker to the same server, for the empty list. */
function startHint(ctx: CommandContext, baseURL: string): string {
  return `Start one with: ${ctx.invocation} worker --server ${visibleText(serverUrl(baseURL))} --worker-host <id>`;
}

function row(worker: ConnectedWorker, now: number): string[] {
  // Every cell comes from the server; renderTable shows control characters as visible text.
  return [
    worker.worker_host,
    worker.instance_id,
    `${worker.running_runs}/${worker.capacity}`,
    timeAgo(worker.last_heartbeat_at, now),
    worker.draining ? 'yes' : 'no',
    worker.version,
  ];
}

export const workersCommand: Command = {
  name: 'workers',
  summary: 'List the self-hosted workers connected to the server',
  usage: '[flags]',
  description:
    'List the self-hosted worker processes connected to the server, by worker host then instance;\n' +
    'pass a worker host to run --worker-host to run there.',
  positionals: true,
  usesApi: true,
  flags: { json: { type: 'boolean', description: 'Print {"workers": [...]} as JSON' } },
  examples: ['$0 workers', '$0 workers --json | jq -r ".workers[] | select(.draining | not) | .worker_host"'],
  async run(flags, ctx) {
    noArguments(flags);
    const client = ctx.client();
    const result = await client.workers.list();
    if (flags.bool('json')) writeJson(ctx.io.stdout, result);
    else if (result.workers.length === 0) ctx.io.stdout.write(`No self-hosted worker is connected.\n${startHint(ctx, client.baseURL)}\n`);
    else {
      const now = Date.now();
      const rows = result.workers.map((worker) => row(worker, now));
      const headers = ['WORKER HOST', 'INSTANCE', 'RUNNING', 'LAST HEARTBEAT', 'DRAINING', 'VERSION'];
      ctx.io.stdout.write(renderTable(headers, rows, paintFor(ctx.io.stdout, ctx.io.env)));
    }
    return EXIT.OK;
  },
};
