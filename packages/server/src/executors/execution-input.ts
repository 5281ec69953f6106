import type { RunAttachment } from '../store/runs/run-attachments.js';

// The store keeps attachments in this form; the agent protocol hands them on as they are.
export type { RunAttachment };

/** A follow-up as an agent sees it (conversation file, inbox). */
export interface FollowupMessage {
  id: string;
  message: string;
  mode: string | null;
  created_at: string;
  /** `agent_message` for a message from another run (its text is the body); absent for a follow-up. */
  kind?: 'agent_message' | undefined;
  sender_run_id?: string | undefined;
  subject?: string | undefined;
}

/** One line of the conversation file the agent reads. */
export type ConversationEntry =
  | { kind: 'prompt'; role: 'user'; text: string; created_at: string; execution: 1 }
  | { kind: 'followup'; role: 'user'; id: string; text: string; mode: string | null; created_at: string; execution: number | null }
  | { kind: 'result'; role: 'assistant'; text: string; state: string; created_at: string; execution: number };

/** Bounds on what one run's agent may hand back. */
export interface ArtifactLimits {
  /** Largest single file or screenshot, in bytes. */
  maxFileBytes: number;
  /** All files and screenshots of a run together, over all its executions, in bytes. */
  maxRunBytes: number;
  /** Artifacts (of every type) one execution may add. */
  maxArtifactsPerExecution: number;
}

/** Everything an execution starts from, beyond the run itself. */
export interface ExecutionInput {
  /** 1 for the first execution, then one more for each follow-up execution. */
  number: number;
  /** The follow-ups this execution answers (empty for a first execution with none waiting). */
  followups: FollowupMessage[];
  /** The prompt, earlier follow-ups and results, and this execution's follow-ups. */
  conversation: ConversationEntry[];
  attachments: RunAttachment[];
  limits: ArtifactLimits;
  /** Bytes of files the run's earlier executions already keep. */
  usedBytes: number;
}
