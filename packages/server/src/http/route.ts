import type { OriginGuardOptions, RunCreatorInfo } from '@agent-runs/core/contract';
import type { IncomingMessage } from 'node:http';
import type { RunTokenGrant, RunTokens } from '../domain/run-tokens.js';
import type { ApiKeyAuth } from './api-key-auth.js';
import type { WorkerAuth, WorkerTokenGrant } from './worker-auth.js';
import type { Reply } from './reply.js';
import type { SessionTokens } from './session-access.js';
import type { SignedLinks } from './signed-links.js';
import type { SseHeartbeat } from './sse-heartbeat.js';
import type { EventStreamLimits } from './sse-limits.js';
import type { StoreOutage } from './store-outage.js';

/**
 * What http/ itself reaches on a request (auth, the origin guard, the store's outages, body
 * and stream limits, links and session tokens). An app's context extends it with its
 * services; http/ knows nothing of them, so a route is generic over that context.
 */
export interface HttpContext {
  heartbeat: SseHeartbeat;
  /** The database being unreachable: 503s, and one log line per outage. */
  storeOutage: StoreOutage;
  /** How many event streams may be open, and what each may hold. */
  streamLimits: EventStreamLimits;
  auth: ApiKeyAuth;
  /** The worker tokens: the only credential of `auth: 'worker'` routes. */
  workerAuth: WorkerAuth;
  /** The run tokens of the executions this server runs: accepted only by routes marked `runToken`. */
  runTokens: RunTokens;
  maxBodyBytes: number;
  /** Signs the download links of artifacts, transcripts and handoff files. */
  links: SignedLinks;
  /** The Host names and origins requests may come from (known once the server listens). */
  originGuard: () => OriginGuardOptions;
  sessionTokens: SessionTokens;
}

export interface RouteRequest<C extends HttpContext> {
  req: IncomingMessage;
  url: URL;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  app: C;
  /** Who called: set on routes that require authentication. */
  caller: RunCreatorInfo;
  /** The worker token the request carried: set on `auth: 'worker'` routes only. */
  worker?: WorkerTokenGrant;
  /** The run token the request carried (its caller is then the run's principal): set only on `runToken` routes. */
  runToken?: RunTokenGrant;
}

/** A JSON body sent with 200, or a Reply (reply.ts) for anything else. */
export type RouteResult = Reply | object | string | number | boolean | null;

export interface Route<C extends HttpContext> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path such as `/api/v1/agent/runs/:runId`. */
  path: string;
  /** False for pages a browser opens and for the health check; 'worker' for the worker endpoints (a worker token, never an API key). */
  auth: boolean | 'worker';
  /** True for the dashboard's form posts: the body is `application/x-www-form-urlencoded` (CSRF-checked by the page). */
  form?: true;
  /** True where a run token is accepted too: the handler then holds the request to the token's scope. */
  runToken?: true;
  /** Parses the request, calls a service and returns what to answer; http/ sends it (send-result.ts). */
  handle(request: RouteRequest<C>): Promise<RouteResult> | RouteResult;
}
