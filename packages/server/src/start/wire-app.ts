import { VERSION, type OriginGuardOptions } from '@agent-runs/core/contract';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogService } from '../catalog/catalog-service.js';
import { EnvironmentRegistry } from '../catalog/environment-registry.js';
import { RunSetupResolver } from '../catalog/resolve-run-setup.js';
import { SkillCatalog } from '../catalog/skill-catalog.js';
import type { ResolvedOptions } from '../config/resolve-options.js';
import { sessionSecret } from '../config/session-secret.js';
import type { ApiKey } from '../config/server-options.js';
import type { ServerConfig } from '../domain/server-config.js';
import type { ProcessGroupRecord, RunExecutor } from '../executors/run-executor.js';
import { wireExecutor } from './wire-executor.js';
import { ApiKeyAuth } from '../http/api-key-auth.js';
import { WorkerAuth } from '../http/worker-auth.js';
import { RunTokens } from '../domain/run-tokens.js';
import { OrchestrationLimits } from '../runs/orchestration-limits.js';
import { RunTokenScope } from '../runs/run-token-scope.js';
import type { AppContext } from '../routes/app-context.js';
import { SessionTokens } from '../http/session-access.js';
import { SignedLinks } from '../http/signed-links.js';
import { SseHeartbeat } from '../http/sse-heartbeat.js';
import { MailboxService } from '../messages/mailbox-service.js';
import { NamedAgentService } from '../named-agents/named-agent-service.js';
import { namedAgentVisible } from '../named-agents/named-agent-visibility.js';
import { ClusterNode } from '../runs/cluster-node.js';
import { RunMoves } from '../runs/run-moves.js';
import { RunBudgets } from '../runs/run-budgets.js';
import { PrincipalQuotas } from '../runs/principal-quotas.js';
import { ExecutionJournal } from '../runs/execution-journal.js';
import { FollowupService } from '../runs/followup-service.js';
import type { MonotonicClock } from '../runs/monotonic-clock.js';
import { NO_PEERS } from '../runs/peers.js';
import { RunEventLog } from '../runs/run-event-log.js';
import { RunPullRequests } from '../pull-requests/run-pull-requests.js';
import { RunQueue } from '../runs/run-queue.js';
import { RunReads } from '../runs/run-reads.js';
import { RunService } from '../runs/run-service.js';
import { toRunItem } from '../runs/to-run-item.js';
import { ScheduleFiring } from '../schedules/schedule-firing.js';
import { ScheduleRules } from '../schedules/schedule-rules.js';
import { ScheduleService } from '../schedules/schedule-service.js';
import { EventStreamLimits } from '../http/sse-limits.js';
import { StoreOutage } from '../http/store-outage.js';
import { isStoreUnreachable } from '../store/store-unreachable.js';
import { ScheduleLocks } from '../schedules/schedule-locks.js';
import { Scheduler } from '../schedules/scheduler.js';
import { artifactsOf, type ArtifactRecord } from '../store/artifacts/artifact-store.js';
import { runAttachmentSource } from '../store/runs/run-attachments.js';
import type { RunRecord } from '../store/runs/run-record.js';
import type { Storage } from '../store/storage.js';
import { ServerMetrics } from './server-metrics.js';
import { CONNECTIONS_PER_RECEIVER } from '../webhooks/webhook-sender.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { WebhookService } from '../webhooks/webhook-service.js';
import { WorkerHub } from '../workers/worker-hub.js';
import { WorkerRouting } from '../workers/worker-routing.js';
import { WorkerService } from '../workers/worker-service.js';

/** What wiring gives the lifecycle: the routes' context and the parts that start and stop. */
export interface WiredApp {
  app: AppContext;
  executor: RunExecutor;
  queue: RunQueue;
  events: RunEventLog;
  followups: FollowupService;
  scheduler: Scheduler;
  node: ClusterNode | undefined;
  skills: SkillCatalog;
  /** Sends the webhooks the outbox holds. */
  webhooks: WebhookDispatcher;
  /** The self-hosted workers' side of the server. */
  workers: WorkerService;
  /** Where skills' repositories are cloned (removed at close when there is no data directory). */
  skillCache: string;
}

export interface WiringInput {
  opts: ResolvedOptions;
  config: ServerConfig;
  timeZone: string;
  storage: Storage;
  serverId: string;
  clock: MonotonicClock;
  keys: readonly ApiKey[];
  /** Known once the server listens. */
  publicUrl: () => string;
  /** The server's address as the agents it starts reach it (its listening address), known once it listens. */
  agentUrl: () => string;
  originGuard: () => OriginGuardOptions;
}

/** Builds every service on the storage, and the context routes reach them through. */
export async function wireApp({ opts, config, timeZone, storage, serverId, clock, keys, publicUrl, agentUrl, originGuard }: WiringInput): Promise<WiredApp> {
  const store = storage.runs;
  const cluster = storage.cluster;
  // Every server of a shared database signs links with the same keys, so any of them opens them.
  const sessionTokens = new SessionTokens(cluster ? await cluster.secrets.get('session-links') : sessionSecret(opts.dataDir));
  const links = new SignedLinks(opts.downloadLinkTtlMs, cluster ? await cluster.secrets.get('download-links') : undefined);
  // Made once the workers' service is (the counter is told from here and from it).
  let metrics: ServerMetrics | undefined;
  const leaseLost = (host: string) => metrics?.leaseLost(host);
  const node = cluster ? new ClusterNode(cluster, serverId, opts.leaseMs, clock, opts.log, leaseLost) : undefined;
  const peers = node ?? NO_PEERS;
  const environments = new EnvironmentRegistry(config);
  const skillCache = opts.dataDir ? join(opts.dataDir, 'skill-repos') : mkdtempSync(join(tmpdir(), 'agent-runs-skills-'));
  const skills = new SkillCatalog(config, skillCache, opts.log);
  const namedAgentStore = storage.namedAgents;
  const workerTokens = config.workerTokens ?? [];
  const workerAuth = new WorkerAuth(workerTokens);
  const setup = new RunSetupResolver(
    environments,
    skills,
    namedAgentStore,
    (identity, principal) => namedAgentVisible(identity, principal, opts.sharedRuns),
    workerAuth.knownHosts(),
  );
  const recordProcessGroup = (runId: string, group: ProcessGroupRecord) => {
    store.setProcessGroup(runId, group).catch((error: unknown) => opts.log(`Could not record the process group of run ${runId}: ${(error as Error).message}`));
  };
  const { executor, models } = wireExecutor({ opts, config, environments, principals: keys.map((k) => k.principal), recordProcessGroup });
  const { artifacts, conversations } = storage;
  const limits = {
    maxFileBytes: opts.maxArtifactBytes,
    maxRunBytes: opts.maxRunArtifactBytes,
    maxArtifactsPerExecution: opts.maxArtifactsPerExecution,
  };
  const sessionLink = (run: { sessionId: string }) => sessionTokens.link(publicUrl(), run.sessionId);
  const signLink = (path: string) => {
    const signed = links.sign(path);
    return { url: `${publicUrl()}${signed.path}`, expiresAt: signed.expiresAt };
  };
  const runItem = async (run: RunRecord, known?: readonly ArtifactRecord[]) => toRunItem(run, sessionLink(run), known ?? (await artifactsOf(artifacts, run)));
  const events = new RunEventLog(storage.events, runItem, opts.outputLimitBytes, opts.log);
  const moves = new RunMoves(store, clock, events);
  const journal = new ExecutionJournal(store, moves, conversations, artifacts, runAttachmentSource(store), limits, clock, events);
  const pullRequests = new RunPullRequests({ environments, secrets: config.secrets, store, artifacts, runPage: (id) => `${publicUrl()}/runs/${id}`, log: opts.log });
  // Always made, so the quota endpoint answers where no quotas: section is; with none, it holds nothing.
  const quotas = new PrincipalQuotas(config.quotas, store);
  // Each execution's agent reaches this server's own URL with a token of its run (see RunTokenScope).
  const runTokens = new RunTokens(storage.runTokens, opts.log);
  const queue = new RunQueue({
    publish: pullRequests.publish,
    store,
    quotas: config.quotas ? quotas : undefined,
    moves,
    executor,
    clock,
    concurrency: opts.concurrency,
    log: opts.log,
    journal,
    events,
    owner: { id: serverId, leaseMs: opts.leaseMs },
    peers,
    claimsNothing: opts.workersOnly,
    agentApi: { url: agentUrl, tokens: runTokens },
  });
  const hub = new WorkerHub();
  // Late-bound: routing asks the service whether a worker of an id is connected.
  let workersRef: WorkerService | undefined;
  const routing = new WorkerRouting(
    workerAuth.knownHosts(),
    (id) => environments.get(id)?.workerHost,
    async (host) => (await workersRef?.availability(host)) ?? { connected: false, freeSlots: 0 },
    opts.workersOnly,
    (host) => metrics?.atCapacity(host),
  );
  const workers = new WorkerService({
    publish: pullRequests.publish,
    store,
    moves,
    journal,
    events,
    clock,
    hub,
    registry: storage.workers,
    routing,
    leaseMs: opts.leaseMs,
    workersOnly: opts.workersOnly,
    limits,
    serverVersion: VERSION,
    runQueued: () => queue.runQueued(),
    spendStop: config.quotas ? (run) => quotas.spendStop(run.creator.uid) : undefined,
    // On PostgreSQL the cluster node fails the runs of every lease that ran out, workers' too.
    expiresLeases: !cluster,
    log: opts.log,
    leaseLost,
    runTokens,
  });
  workersRef = workers;
  metrics = new ServerMetrics(store, workers);
  queue.onQueued(() => workers.queued());
  const budgets = new RunBudgets(config.budgets);
  const runs = new RunService(store, moves, queue, executor, clock, events, setup, conversations, opts.sharedRuns, peers, workers, budgets, quotas, new OrchestrationLimits(store, config.orchestration));
  const reads = new RunReads(store, runs, artifacts, conversations, events, sessionLink, signLink, opts.workDir, opts.dataDir);
  const followups = new FollowupService(store, moves, runs, conversations, queue, journal, executor, clock, events, peers, workers);
  const rules = new ScheduleRules(setup, timeZone, budgets);
  const scheduleLocks = new ScheduleLocks();
  const schedules = new ScheduleService(storage.schedules, rules, environments, opts.clock, opts.sharedRuns, scheduleLocks);
  const scheduler = new Scheduler(new ScheduleFiring(storage.schedules, runs, timeZone, opts.clock, opts.log, scheduleLocks), opts.schedulerIntervalMs, opts.log);
  const webhooks = new WebhookDispatcher({
    store: storage.webhooks,
    sources: { runs: store, artifacts, conversations, schedules: storage.schedules, runItem: (run) => runItem(run) },
    owner: serverId,
    sharedRuns: opts.sharedRuns,
    allowPrivate: opts.allowPrivateWebhooks,
    retryDelaysMs: opts.webhookRetryDelaysMs,
    pollMs: opts.webhookPollMs,
    leaseMs: opts.webhookLeaseMs,
    timeoutMs: 15_000,
    maxResponseBytes: 4096,
    concurrency: CONNECTIONS_PER_RECEIVER,
    log: opts.log,
  });
  // A change made here wakes the deliveries once committed; one stored by another server, or
  // changes that may have been missed, once its event is (`run` is then undefined).
  events.onChange((state) => webhooks.changed(state));
  events.streams.onRunChange((_runId, run) => {
    if (run === undefined) webhooks.changed(undefined);
  });
  const app: AppContext = {
    runs,
    workers,
    reads,
    events,
    followups,
    scope: new RunTokenScope(runs),
    mailbox: new MailboxService(storage.mailbox, runs, queue, clock, peers, workers),
    schedules,
    namedAgents: new NamedAgentService(namedAgentStore, setup, environments, opts.clock, opts.sharedRuns),
    webhooks: new WebhookService({
      store: storage.webhooks,
      clock: opts.clock,
      allowPrivate: opts.allowPrivateWebhooks,
      sharedRuns: opts.sharedRuns,
      wake: () => webhooks.wake(),
    }),
    catalog: new CatalogService(environments, skills, storage.activity, opts.sharedRuns),
    models,
    metrics: { render: () => metrics!.render(), contentType: metrics.contentType, token: config.metricsToken },
    heartbeat: new SseHeartbeat(opts.heartbeatMs),
    streamLimits: new EventStreamLimits(opts.eventStreams),
    storeOutage: new StoreOutage(isStoreUnreachable, () => reads.ping(), opts.log),
    auth: new ApiKeyAuth(keys, !opts.noAuth),
    workerAuth,
    runTokens,
    maxBodyBytes: opts.maxBodyBytes,
    links,
    originGuard,
    sessionTokens,
  };
  return { app, executor, queue, events, followups, scheduler, node, skills, skillCache, webhooks, workers };
}
