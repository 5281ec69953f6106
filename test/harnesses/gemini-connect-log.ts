import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  /** What was logged so far. */
  entries(): { kind: string; host?: string; path?: string; port?: string }[];
}

/** A log of the network connections a Node CLI (Gemini CLI) attempts, names resolved included. */
export function connectLog(): ConnectLog {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-connect-log-'));
  const preload = join(dir, 'connect-log.mjs');
  const file = join(dir, 'connections.jsonl');
  writeFileSync(preload, PRELOAD);
  return {
    env: { NODE_OPTIONS: `--import ${preload}`, AGENT_RUNS_TEST_CONNECT_LOG: file },
    entries: () =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { kind: string; host?: string; path?: string; port?: string })
        : [],
  };
}

/** Whether a logged connection stays on this machine. */
export function isLoopback(entry: { host?: string; path?: string }): boolean {
  if (entry.path !== undefined) return true;
  return entry.host === 'localhost' || entry.host === '::1' || /^127\./.test(entry.host ?? '');
}
