import type { ApiKey } from '../http/api-key-auth.js';
import type { ServerClock } from '../domain/server-clock.js';
import type { EventStreamLimitOptions } from '../http/sse-limits.js';

export type { ApiKey };

/** Options of `startServer`; the `agent-runs-server` command maps its flags and environment onto these. */
export interface ServerOptions {
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /** Address to bind. Default `127.0.0.1`. */
  host?: string;
  /** `memory` keeps runs in memory only (tests); `file` keeps them in `dataDir`. Default `file`. */
  storage?: 'memory' | 'file';
  /** Directory of the SQLite database (and per-run working directories). Default `~/.agent-runs/server`. */
  dataDir?: string;
  /**
   * A PostgreSQL database (`postgres://user:password@host:5432/db`) to keep everything in
   * instead of SQLite; `storage` is then not used. Any number of servers may share it.
   */
  databaseUrl?: string;
  /**
   * With `databaseUrl`: how long a server holds the runs it executes without renewing
   * (it renews every third of it). When a server dies, another fails its runs within
   * about 4/3 of this. Default 15 000.
   */
  leaseMs?: number;
  /** Accepted API keys, each naming the principal that becomes the creator of its runs. */
  apiKeys?: ApiKey[];
  /** Accept requests without a key. Allowed only when `host` is a loopback address. */
  noAuth?: boolean;
  /** Who does the work: a built-in `simulated` agent (default), or a configured `command`. */
  executor?: 'simulated' | 'command';
  /**
   * The harness (agent CLI) of runs that name none or name `oz`: `claude`, `codex` or
   * `gemini`. Default the configuration file's `harnesses.default`, else the executor above.
   */
  harness?: 'claude' | 'codex' | 'gemini';
  /** The agent command line for the `command` executor, run by the shell. */
  command?: string;
  /** The `command` executor ends a run that takes longer than this. Default 30 minutes. */
  commandTimeoutMs?: number;
  /**
   * Names of the server's environment variables the agent command also receives, besides
   * the allow-listed PATH, HOME, USER, LOGNAME, LANG, LANGUAGE, LC_*, TZ and TMPDIR.
   */
  agentEnv?: string[];
  /**
   * Let every key read and cancel every run. Default false: a key reads, lists and cancels
   * only the runs of its own principal.
   */
  sharedRuns?: boolean;
  /**
   * Where the `command` executor makes a working directory per run. Default a private
   * directory (0700) under the system's temp directory, outside the data directory, so an
   * agent cannot reach the key file or the database by a relative path.
   */
  workDir?: string;
  /** Runs executed at once; the rest wait in FIFO order. Default 2. */
  concurrency?: number;
  /** How long a simulated run takes when its prompt names no duration. Default 3000. */
  simulatedDurationMs?: number;
  /** Largest request body accepted, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** The agent output kept per run, in bytes; past it the oldest output is dropped (and says so). Default 8 MiB. */
  outputLimitBytes?: number;
  /** The longest gap between comment lines on an idle event stream, in ms. Default 15 000. */
  heartbeatMs?: number;
  /** Event streams open at once per principal, per session link and in all, and what a reader that does not read may hold. */
  eventStreams?: EventStreamLimitOptions;
  /** The address put in session links when the server is reached through a proxy. Default the listening URL. */
  publicUrl?: string;
  /** Largest file or screenshot an agent may hand back, in bytes. Default 10 MiB. */
  maxArtifactBytes?: number;
  /** All files and screenshots of one run together, over all its executions, in bytes. Default 50 MiB. */
  maxRunArtifactBytes?: number;
  /** Artifacts one execution may add (report lines and files together). Default 100. */
  maxArtifactsPerExecution?: number;
  /** How long artifact, transcript and handoff download links work. Default 15 minutes. */
  downloadLinkTtlMs?: number;
  /**
   * Host names (`name` or `name:port`) requests may address besides the loopback names and
   * `publicUrl`'s host; any other Host, and any Origin but the server's own, gets a 403.
   */
  allowedHosts?: string[];
  /** Print nothing (not even a generated key: read it from the result). */
  quiet?: boolean;
  /** Where lines are printed. Default stderr. */
  log?: (line: string) => void;
  /** The configuration file (JSON or YAML): environments, skill directories, the schedules' time zone. */
  configFile?: string;
  /** The time zone schedules' cron expressions are read in. Default the configuration file's, else UTC. */
  scheduleTimeZone?: string;
  /** What schedules take the time from. Default the system clock; tests pass one they can move. */
  clock?: ServerClock;
  /** How often due schedules are looked for, in ms. Default 1000. */
  schedulerIntervalMs?: number;
  /** Let webhooks reach loopback, private and link-local addresses, over http too (development and tests). Default false. */
  allowPrivateWebhooks?: boolean;
  /** Run no agent here: self-hosted workers take every run, those naming no worker_host too. Default false. */
  workersOnly?: boolean;
  /** The waits between a failed webhook attempt and the next, in ms. Default the Standard Webhooks schedule (about 2.6 days in all). */
  webhookRetryDelaysMs?: number[];
  /** How often webhook events and due deliveries are looked for while a subscription is enabled, in ms. Default 20. */
  webhookPollMs?: number;
  /** How long a server holds a webhook delivery it attempts; another server takes it over after. Default 30 s; keep it above the 15 s an attempt may take. */
  webhookLeaseMs?: number;
  /**
   * Agents in a bubblewrap sandbox: `auto` (default) where it works, `on` refuses to start
   * without it, `off` runs them bare. Default the configuration file's, else `auto`.
   */
  sandbox?: 'auto' | 'on' | 'off';
  /** Where the server runs as root: the user agents run as (name or uid[:gid]). Default `nobody`. */
  agentUser?: string;
  /**
   * Where the server runs as root: each principal's agents (command and harness) run as a uid of their own
   * from this range (`first-last`, e.g. `61000-61999`), so one principal's agent cannot read
   * another's runs even without the sandbox. Default: every agent is `agentUser`.
   */
  agentUidRange?: string;
  /** What sandboxed agents may reach: `none`, `full`, or a list of hosts. Default the configuration file's, else `full`. */
  network?: 'none' | 'full' | string[];
}

export interface RunningServer {
  /** `http://127.0.0.1:<port>`: the session pages and `/healthz` live here. */
  url: string;
  /** `${url}/api/v1`: give this to the client. */
  baseURL: string;
  /** A key the server accepts: the first configured, or the one it generated. */
  apiKey: string;
  /** The file the generated key is kept in (data directory servers without a configured key), else undefined. */
  apiKeyFile: string | undefined;
  /** Stops taking work, marks runs in flight as failed, closes the store. */
  close(): Promise<void>;
}
