import type { CatalogService } from '../catalog/catalog-service.js';
import type { ModelCatalog } from '../catalog/model-catalog.js';
import type { HttpContext, Route, RouteRequest } from '../http/route.js';
import type { MailboxService } from '../messages/mailbox-service.js';
import type { NamedAgentService } from '../named-agents/named-agent-service.js';
import type { DocumentedRoute } from '../openapi/openapi-operation.js';
import type { FollowupService } from '../runs/followup-service.js';
import type { RunEventLog } from '../runs/run-event-log.js';
import type { RunReads } from '../runs/run-reads.js';
import type { RunService } from '../runs/run-service.js';
import type { RunTokenScope } from '../runs/run-token-scope.js';
import type { ScheduleService } from '../schedules/schedule-service.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import type { WorkerService } from '../workers/worker-service.js';

export type { RouteResult } from '../http/route.js';

/** What every route of this server can reach: the services, beside what http/ itself needs. */
export interface AppContext extends HttpContext {
  /** Creating and cancelling runs, and who may read which. */
  runs: RunService;
  /** Reading runs and what they made. */
  reads: RunReads;
  /** Each run's event log and open streams. */
  events: RunEventLog;
  followups: FollowupService;
  /** What a run token may reach: its run's family, while its run runs. */
  scope: RunTokenScope;
  /** The run-to-run mailbox and the lifecycle event feed. */
  mailbox: MailboxService;
  schedules: ScheduleService;
  namedAgents: NamedAgentService;
  /** Webhook subscriptions and their deliveries. */
  webhooks: WebhookService;
  /** Environments and skills. */
  catalog: CatalogService;
  /** The models of the harnesses this server can run. */
  models: ModelCatalog;
  /** `GET /metrics`: the text, and the token that opens it from elsewhere than this machine. */
  metrics: { render(): Promise<string>; readonly contentType: string; readonly token: string | undefined };
  /** Self-hosted workers: their connects, polls, reports and finishes. */
  workers: WorkerService;
}

/** A route of this server: its handler, and (under `/api/v1/`) its OpenAPI operation beside it. */
export interface AppRoute extends Route<AppContext>, DocumentedRoute {
  method: Route<AppContext>['method'];
}

export type AppRouteRequest = RouteRequest<AppContext>;
