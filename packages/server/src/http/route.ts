import type { OriginGuardOptions, RunCreatorInfo } from '@agent-runs/core/contract';
import type { IncomingMessage } from 'node:http';
import type { CatalogService } from '../catalog/catalog-service.js';
import type { ModelCatalog } from '../catalog/model-catalog.js';
import type { IdentityService } from '../identities/identity-service.js';
import type { FollowupService } from '../runs/followup-service.js';
import type { RunEventLog } from '../runs/run-event-log.js';
import type { RunReads } from '../runs/run-reads.js';
import type { RunService } from '../runs/run-service.js';
import type { ScheduleService } from '../schedules/schedule-service.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import type { ApiKeyAuth } from './api-key-auth.js';
import type { Reply } from './reply.js';
import type { SessionTokens } from './session-access.js';
import type { SignedLinks } from './signed-links.js';
import type { SseHeartbeat } from './sse-heartbeat.js';
import type { EventStreamLimits } from './sse-limits.js';
import type { StoreOutage } from './store-outage.js';

/** What every route can reach: the services, and what http/ itself needs (auth, links, streams). */
export interface AppContext {
  /** Creating and cancelling runs, and who may read which. */
  runs: RunService;
  /** Reading runs and what they made. */
  reads: RunReads;
  /** Each run's event log and open streams. */
  events: RunEventLog;
  followups: FollowupService;
  schedules: ScheduleService;
  identities: IdentityService;
  /** Webhook subscriptions and their deliveries. */
  webhooks: WebhookService;
  /** Environments and skills. */
  catalog: CatalogService;
  /** The models of the harnesses this server can run. */
  models: ModelCatalog;
  heartbeat: SseHeartbeat;
  /** The database being unreachable: 503s, and one log line per outage. */
  storeOutage: StoreOutage;
  /** How many event streams may be open, and what each may hold. */
  streamLimits: EventStreamLimits;
  auth: ApiKeyAuth;
  maxBodyBytes: number;
  /** Signs the download links of artifacts, transcripts and handoff files. */
  links: SignedLinks;
  /** The Host names and origins requests may come from (known once the server listens). */
  originGuard: () => OriginGuardOptions;
  sessionTokens: SessionTokens;
}

export interface RouteRequest {
  req: IncomingMessage;
  url: URL;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  app: AppContext;
  /** Who called: set on routes that require authentication. */
  caller: RunCreatorInfo;
}

/** A JSON body sent with 200, or a Reply (reply.ts) for anything else. */
export type RouteResult = Reply | object | string | number | boolean | null;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path such as `/api/v1/agent/runs/:runId`. */
  path: string;
  /** False for pages a browser opens and for the health check. */
  auth: boolean;
  /** True for the dashboard's form posts: the body is `application/x-www-form-urlencoded` (CSRF-checked by the page). */
  form?: true;
  /** Parses the request, calls a service and returns what to answer; http/ sends it (send-result.ts). */
  handle(request: RouteRequest): Promise<RouteResult> | RouteResult;
}
