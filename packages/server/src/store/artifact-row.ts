import type { KnownArtifactType } from '@agent-runs/core/contract';
import type { ArtifactRecord } from './artifact-store.js';

/** An `artifacts` row as both databases answer it (PostgreSQL gives bigints as strings). */
export interface ArtifactRow {
  uid: string;
  run_id: string;
  artifact_type: string;
  created_at: string;
  data: string;
  size_bytes: number | string;
}

export const ARTIFACT_COLUMNS = 'uid, run_id, artifact_type, created_at, data, size_bytes';

export function toArtifact(row: ArtifactRow): ArtifactRecord {
  return {
    uid: row.uid,
    runId: row.run_id,
    type: row.artifact_type as KnownArtifactType,
    createdAt: row.created_at,
    data: JSON.parse(row.data) as Record<string, unknown>,
    sizeBytes: Number(row.size_bytes),
  };
}

/** Rows of many runs' artifacts, in their order, grouped by run. */
export function groupByRun(rows: readonly ArtifactRow[]): Map<string, ArtifactRecord[]> {
  const found = new Map<string, ArtifactRecord[]>();
  for (const row of rows) {
    const list = found.get(row.run_id) ?? [];
    list.push(toArtifact(row));
    found.set(row.run_id, list);
  }
  return found;
}
