#!/usr/bin/env node
import { parseServerArgs, SERVER_HELP } from '../config/parse-server-args.js';
import { ServerConfigError } from '../domain/server-config-error.js';
import { startServer } from '../start-server.js';
import { startedByNpm, whenParentExits } from './exit-with-parent.js';

async function main(): Promise<void> {
  const parsed = parseServerArgs(process.argv.slice(2));
  if (parsed.help) {
    process.stdout.write(SERVER_HELP);
    return;
  }
  const server = await startServer(parsed.options);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!parsed.options.quiet) process.stderr.write(`${signal}: finishing requests, marking runs in flight, closing the store...\n`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Could not stop cleanly: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Under npx the signal stops npx only; the server ends with it. A server started otherwise
  // (nohup, a service manager) outlives whoever started it, as it should.
  if (startedByNpm(process.env)) whenParentExits(() => stop('npx exited'));
}

main().catch((error: unknown) => {
  const known = error instanceof ServerConfigError || (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  process.stderr.write(`agent-runs-server: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(2);
});
