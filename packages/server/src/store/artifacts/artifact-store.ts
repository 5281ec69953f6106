import type { KnownArtifactType } from '@agent-runs/core/contract';

/** An artifact as the store keeps it; routes turn it into the contract's shapes. */
export interface ArtifactRecord {
  uid: string;
  runId: string;
  type: KnownArtifactType;
  createdAt: string;
  /** The contract's `data` members, less `artifact_uid` (PLAN keeps its `content` here). */
  data: Record<string, unknown>;
  /** Bytes kept for FILE and SCREENSHOT; 0 for the rest. */
  sizeBytes: number;
}

/** What an execution reports; FILE and SCREENSHOT carry their bytes. */
export interface NewArtifact {
  type: KnownArtifactType;
  data: Record<string, unknown>;
  content?: Buffer;
}

/** A run's artifacts in the order they were made; none read when its record says it has none. */
export async function artifactsOf(store: ArtifactStore, run: { id: string; hasArtifacts?: boolean }): Promise<ArtifactRecord[]> {
  return run.hasArtifacts === false ? [] : store.listByRun(run.id);
}

/** What runs produced, bytes included, kept with the runs so they survive a restart. */
export interface ArtifactStore {
  add(runId: string, artifacts: readonly NewArtifact[], at: string): Promise<ArtifactRecord[]>;
  /** A run's artifacts in the order they were made. */
  listByRun(runId: string): Promise<ArtifactRecord[]>;
  /** The artifacts of many runs at once (for a page of runs), by run id. */
  listByRuns(runIds: readonly string[]): Promise<Map<string, ArtifactRecord[]>>;
  get(uid: string): Promise<ArtifactRecord | undefined>;
  /** The bytes of a FILE or SCREENSHOT artifact. */
  content(uid: string): Promise<Buffer | undefined>;
  /** Bytes of file content already kept for the run (its budget is per run). */
  runBytes(runId: string): Promise<number>;
}
