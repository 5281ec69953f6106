import type { QuotaHold } from './principal-standing.js';
import type {
  AmbientAgentConfig,
  AttachmentInput,
  RequestUsage,
  RunCreatorInfo,
  RunMode,
  RunState,
  RunStatusMessage,
} from '@agent-runs/core/contract';

/** A run as the store keeps it; routes turn it into a contract RunItem. */
export interface RunRecord {
  /** Insertion order: the tie-breaker that makes keyset pages stable. */
  seq: number;
  id: string;
  title: string;
  state: RunState;
  prompt: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  statusMessage: RunStatusMessage | null;
  source: string;
  creator: RunCreatorInfo;
  sessionId: string;
  agentConfig: AmbientAgentConfig;
  /** The run that started this one. */
  parentRunId?: string | undefined;
  conversationId?: string | undefined;
  metadata?: Record<string, string> | undefined;
  mode?: RunMode | undefined;
  interactive?: boolean | undefined;
  /** The named agent the run executes as. */
  agentIdentityUid?: string | undefined;
  /** The schedule that started the run. */
  scheduleId?: string | undefined;
  /** What the run started from beyond its config: a schedule, a skill. */
  origin?: RunOrigin | undefined;
  /** What the run's harness used so far, over all its executions. */
  requestUsage?: RequestUsage | undefined;
  /** The harness's own session id, which a follow-up resumes. */
  harnessSessionId?: string | undefined;
  /**
   * Whether the run had any artifact when it was read, where the store answers that with the
   * run (PostgreSQL, reading one run): false spares a read of its artifacts. Absent: not known.
   */
  hasArtifacts?: boolean;
}

/** The schedule that fired a run and the skill it resolved to, as RunItem shows them. */
export interface RunOrigin {
  schedule?: { schedule_id: string; schedule_name: string; cron_schedule: string };
  agent_skill?: { name: string; description?: string | undefined; full_path?: string };
  /** The resolved skill variant's id (`owner/repo:path`), for the skill's last run. */
  skill_id?: string;
}

/** A file given with the prompt, decoded. */
export interface StoredAttachment {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** What a create stores; the store assigns `seq`. */
export type NewRun = Omit<RunRecord, 'seq'> & {
  /** The request body's extra members (skill, team, ...), kept as given. */
  request: Record<string, unknown>;
  idempotencyKey: string | null;
  requestHash: string | null;
  attachments?: StoredAttachment[];
  /** The self-hosted workers that execute the run (their `worker_host`); '' or absent: the server's own executor. */
  workerHost?: string | undefined;
  /**
   * Inserted only while its parent has fewer children than this (`orchestration.max_children_per_run`),
   * counted in the insert's own transaction, so creates racing under one parent cannot pass the count together.
   */
  childLimit?: number | undefined;
  /**
   * Inserted only while its principal (`creator.uid`) is under these limits, its standing read
   * in the insert's own transaction, so creates racing under one principal cannot pass the read together.
   */
  quota?: QuotaHold | undefined;
  /** Its place in the fair turns between principals (run-turns.ts), as the store works it out: never given by a caller. */
  turn?: number | undefined;
};

/** The stored form of attachments from a create body. */
export function decodeAttachments(attachments: readonly AttachmentInput[] | undefined): StoredAttachment[] {
  return (attachments ?? []).map((a) => ({ fileName: a.file_name, mimeType: a.mime_type, data: Buffer.from(a.data, 'base64') }));
}
