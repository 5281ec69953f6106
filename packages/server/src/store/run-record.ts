import type { AmbientAgentConfig, RunCreatorInfo, RunState, RunStatusMessage } from '@agent-runs/core/contract';

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
}

/** What a create stores; the store assigns `seq`. */
export type NewRun = Omit<RunRecord, 'seq'> & {
  /** The request body's extra members (skill, team, ...), kept as given. */
  request: Record<string, unknown>;
  idempotencyKey: string | null;
  requestHash: string | null;
};
