import type { OriginGuardOptions, RunCreatorInfo } from '@agent-runs/core/contract';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyAuth } from './api-key-auth.js';
import type { RunEventLog } from '../runs/run-event-log.js';
import type { SessionTokens } from './session-access.js';
import type { RunRecord } from '../store/run-record.js';
import type { RunService } from '../runs/run-service.js';
import type { SseHeartbeat } from './sse-heartbeat.js';
import type { RunStore } from '../store/run-store.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { ConversationStore } from '../store/conversation-store.js';
import type { FollowupService } from '../runs/followup-service.js';
import type { SignedLinks } from './signed-links.js';
import type { IdentityService } from '../identities/identity-service.js';
import type { ScheduleService } from '../schedules/schedule-service.js';
import type { EnvironmentRegistry } from '../sources/environment-registry.js';
import type { SkillCatalog } from '../sources/skill-catalog.js';
import type { SourceActivity } from '../store/source-activity.js';

/** What every route can reach. */
export interface AppContext {
  store: RunStore;
  runs: RunService;
  /** Each run's event log and open streams. */
  events: RunEventLog;
  heartbeat: SseHeartbeat;
  auth: ApiKeyAuth;
  /** Where the server is reachable, without a trailing slash (for links). */
  publicUrl: () => string;
  maxBodyBytes: number;
  artifacts: ArtifactStore;
  conversations: ConversationStore;
  followups: FollowupService;
  /** Signs the download links of artifacts, transcripts and handoff files. */
  links: SignedLinks;
  /** Parent of the runs' working directories (handoff files live beside them). */
  workRoot: string;
  schedules: ScheduleService;
  identities: IdentityService;
  environments: EnvironmentRegistry;
  skills: SkillCatalog;
  activity: SourceActivity;
  /** The Host names and origins requests may come from (known once the server listens). */
  originGuard: () => OriginGuardOptions;
  sessionTokens: SessionTokens;
  /** `session_link` for a run: where its page is, with the token that opens it. */
  sessionLink: (run: RunRecord) => string;
}

export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  app: AppContext;
  /** Who called: set on routes that require authentication. */
  caller: RunCreatorInfo;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path such as `/api/v1/agent/runs/:runId`. */
  path: string;
  /** False for pages a browser opens and for the health check. */
  auth: boolean;
  handle(request: RouteRequest): Promise<void> | void;
}
