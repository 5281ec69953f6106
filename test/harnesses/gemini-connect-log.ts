import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Loaded into the CLI's Node with `--import`: records every socket it opens and every name it resolves. */
const PRELOAD = `import net from 'node:net';
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
const file = process.env.AGENT_RUNS_TEST_CONNECT_LOG;
const log = (entry) => { try { appendFileSync(file, JSON.stringify(entry) + '\\n'); } catch {} };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const o = first && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : 'localhost' };
  log(o.path ? { kind: 'connect', path: String(o.path) } : { kind: 'connect', host: String(o.host ?? 'localhost'), port: String(o.port) });
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) { log({ kind: 'lookup', host: String(host) }); return lookup.call(this, host, ...rest); };
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = function (host, ...rest) { log({ kind: 'lookup', host: String(host) }); return promisesLookup.call(this, host, ...rest); };
`;

export interface ConnectLog {
  /** The variables that make a Node program log its connections. */
  env: { NODE_OPTIONS: string; AGENT_RUNS_TEST_CONNECT_LOG: string };
  /** What was logged so far by the runs under `workRoot`. */
  entries(workRoot: string): { kind: string; host?: string; path?: string; port?: string }[];
}

const LOG_NAME = 'connections.jsonl';

/**
 * A log of the network connections a Node CLI (Gemini CLI) attempts, names resolved included.
 * The sandboxed agent sees neither the server's /tmp nor its files: the preload is a data URL,
 * and each run's log is a file in its working directory (the CLI's directory at start).
 */
export function connectLog(): ConnectLog {
  const preload = `data:text/javascript;base64,${Buffer.from(PRELOAD).toString('base64')}`;
  return {
    env: { NODE_OPTIONS: `--import=${preload}`, AGENT_RUNS_TEST_CONNECT_LOG: LOG_NAME },
    entries: (workRoot) =>
      readdirSync(workRoot)
        .map((run) => join(workRoot, run, LOG_NAME))
        .filter((file) => existsSync(file))
        .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))
        .map((line) => JSON.parse(line) as { kind: string; host?: string; path?: string; port?: string }),
  };
}

/** Whether a logged connection stays on this machine. */
export function isLoopback(entry: { host?: string; path?: string }): boolean {
  if (entry.path !== undefined) return true;
  return entry.host === 'localhost' || entry.host === '::1' || /^127\./.test(entry.host ?? '');
}
