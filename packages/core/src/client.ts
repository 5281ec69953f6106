import type { Dispatcher } from 'undici';
import { CALLER_SOURCE_HEADER } from './contract/caller-source.js';
import { Conversations } from './resources/conversations.js';
import { Runs } from './resources/runs.js';
import { Sessions } from './resources/sessions.js';
import { Agents } from './resources/agents.js';
import { Environments } from './resources/environments.js';
import { Models } from './resources/models.js';
import { Skills } from './resources/skills.js';
import { Schedules } from './resources/schedules.js';
import { Messages } from './resources/messages.js';
import { Events } from './resources/events.js';
import { Artifacts } from './resources/artifacts.js';
import { Webhooks } from './resources/webhooks.js';
import { Workers } from './resources/workers.js';
import { Quota } from './resources/quota.js';
import { downloadUrl, type DownloadFn } from './internal/download-url.js';
import { APIPromise } from './internal/api-promise.js';
import { resolveClientConfig, type ResolvedClientConfig } from './internal/client-config.js';
import { loadUndici } from './internal/load-undici.js';
import { sendRequest, type HTTPRequest } from './internal/http-request.js';
import { openEventStream } from './internal/open-event-stream.js';
import type { ClientOptions, RequestOptions } from './internal/options.js';
import { VERSION } from './internal/version.js';

/** A request to any endpoint, for `client.request()`. */
export type GenericRequest<T> = HTTPRequest<T>;

/**
 * A client for the Cloud Agent Runs API.
 *
 * ```ts
 * const client = new AgentRunsClient();            // AGENT_RUNS_API_KEY, AGENT_RUNS_BASE_URL
 * const run = await client.runs.createAndWait({ prompt: 'Fix the flaky test' });
 * ```
 */
export class AgentRunsClient {
  readonly runs: Runs;
  readonly sessions: Sessions;
  readonly conversations: Conversations;
  /** Runs started on a cron. */
  readonly schedules: Schedules;
  /** The run-to-run mailbox (`/agent/messages`). */
  readonly messages: Messages;
  /** The lifecycle event feed of runs (`/agent/events`). */
  readonly events: Events;
  /** Webhook subscriptions and their deliveries (an extension of the API). */
  readonly webhooks: Webhooks;
  /** Where runs execute. */
  readonly environments: Environments;
  /** The models runs can use (`GET /agent/models`). */
  readonly models: Models;
  /** Skills that serve as base prompts (`GET /agent`). */
  readonly skills: Skills;
  /** Named agents: a prompt, skills, MCP servers and an environment under one name (`/agent/identities`). */
  readonly agents: Agents;
  /**
   * @deprecated Use {@link AgentRunsClient.agents}: the same named agents under their one name.
   * This alias goes in the next release.
   */
  readonly identities: Agents;
  readonly artifacts: Artifacts;
  /** The self-hosted workers connected now (`GET /agent/connected-self-hosted-workers`). */
  readonly workers: Workers;
  /** The caller's quotas and its use of them now (`GET /agent/quota`). */
  readonly quota: Quota;
  readonly baseURL: string;
  private readonly config: ResolvedClientConfig;
  private dispatcher: Promise<Dispatcher> | undefined;
  /** The same dispatcher once made, for requests to use without awaiting it. */
  private madeDispatcher: Dispatcher | undefined;
  private readonly baseHeaders: Record<string, string>;
  private readonly options: ClientOptions;

  constructor(options: ClientOptions = {}) {
    this.options = options;
    this.config = resolveClientConfig(options);
    this.baseURL = this.config.baseURL;
    this.baseHeaders = {
      accept: 'application/json',
      'user-agent': `agent-runs-core/${VERSION} node/${process.versions.node}${options.userAgent ? ` ${options.userAgent}` : ''}`,
      [CALLER_SOURCE_HEADER]: options.source ?? 'API',
      ...this.config.defaultHeaders,
    };
    const send = <T>(req: HTTPRequest<T>) => this.send(req);
    this.runs = new Runs(send, this.download, (req) => openEventStream(this.config, this.getDispatcher, this.baseHeaders, req));
    this.sessions = new Sessions(send);
    this.conversations = new Conversations(send);
    this.artifacts = new Artifacts(send, this.download);
    this.schedules = new Schedules(send);
    this.messages = new Messages(send);
    this.events = new Events(send);
    this.webhooks = new Webhooks(send);
    this.environments = new Environments(send);
    this.models = new Models(send);
    this.skills = new Skills(send);
    this.agents = new Agents(send);
    this.identities = this.agents;
    this.workers = new Workers(send);
    this.quota = new Quota(send);
  }

  /** Whether an API key was given or found in the environment. */
  get hasApiKey(): boolean {
    return Boolean(this.config.apiKey);
  }

  /** A client with some options changed, sharing nothing mutable with this one. */
  withOptions(overrides: ClientOptions): AgentRunsClient {
    return new AgentRunsClient({ ...this.options, ...overrides });
  }

  /** Any endpoint, including those this package does not wrap; retries and errors as for the rest. */
  request<T = unknown>(req: GenericRequest<T>): APIPromise<T> {
    return new APIPromise(this.send(req));
  }

  get<T = unknown>(path: string, options: Omit<GenericRequest<T>, 'method' | 'path'> = {}): APIPromise<T> {
    return this.request({ ...options, method: 'GET', path });
  }

  post<T = unknown>(path: string, options: Omit<GenericRequest<T>, 'method' | 'path'> = {}): APIPromise<T> {
    return this.request({ ...options, method: 'POST', path });
  }

  put<T = unknown>(path: string, options: Omit<GenericRequest<T>, 'method' | 'path'> = {}): APIPromise<T> {
    return this.request({ ...options, method: 'PUT', path });
  }

  delete<T = unknown>(path: string, options: Omit<GenericRequest<T>, 'method' | 'path'> = {}): APIPromise<T> {
    return this.request({ ...options, method: 'DELETE', path });
  }

  /**
   * Closes idle keep-alive connections; call when done so the process can exit promptly.
   * Requests still in flight are waited for, a `runs.wait` on an event stream among them:
   * abort those first (their `signal`).
   */
  async close(): Promise<void> {
    if (this.dispatcher && !this.options.dispatcher) await (await this.dispatcher).close();
    this.dispatcher = undefined;
    this.madeDispatcher = undefined;
  }

  /** The caller's dispatcher, or a keep-alive Agent of this client's, made on first use. */
  private getDispatcher = (): Promise<Dispatcher> => {
    this.dispatcher ??= (
      this.options.dispatcher
        ? Promise.resolve(this.options.dispatcher)
        : loadUndici().then(({ Agent }) => new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 }))
    ).then((made) => (this.madeDispatcher = made));
    return this.dispatcher;
  };

  /** The dispatcher itself once made (most requests), a promise of it before. */
  private dispatcherNow = (): Dispatcher | Promise<Dispatcher> => this.madeDispatcher ?? this.getDispatcher();

  /** Signed links need no key, and may be on another origin: fetched without the key. */
  private download: DownloadFn = async (url, target) => downloadUrl(await this.getDispatcher(), url, target, this.config.timeout);

  private send<T>(req: HTTPRequest<T>) {
    return sendRequest(this.config, this.dispatcherNow, this.baseHeaders, req);
  }
}
