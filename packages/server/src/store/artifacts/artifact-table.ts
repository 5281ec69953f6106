import type { ArtifactRecord, NewArtifact } from './artifact-store.js';
import { rowReader, selectList, type Row, type TableDescription } from '../table-description.js';

/** An artifact as a write stores it: the record and, for FILE and SCREENSHOT, its bytes. */
export type ArtifactWrite = ArtifactRecord & { content?: Buffer | undefined };

/** The `artifacts` table: what both stores write and read, column by column (reads leave the bytes out). */
export const ARTIFACTS_TABLE: TableDescription<ArtifactWrite, ArtifactRecord> = {
  name: 'artifacts',
  columns: [
    { name: 'seq', type: 'integer', identity: 'increasing' },
    { name: 'uid', type: 'text', write: (a) => a.uid, read: 'uid', notNull: true, unique: true },
    { name: 'run_id', type: 'text', write: (a) => a.runId, read: 'runId', notNull: true },
    { name: 'artifact_type', type: 'text', write: (a) => a.type, read: 'type', notNull: true },
    { name: 'created_at', type: 'text', write: (a) => a.createdAt, read: 'createdAt', notNull: true, byteOrder: true },
    { name: 'data', type: 'json', write: (a) => a.data, read: 'data', notNull: true },
    { name: 'content', type: 'bytes', write: (a) => a.content },
    { name: 'size_bytes', type: 'integer', write: (a) => a.sizeBytes, read: 'sizeBytes', notNull: true, default: '0' },
  ],
  indexes: [
    { name: 'artifacts_by_run', on: 'run_id, seq' },
    { name: 'artifacts_by_type', on: 'artifact_type, run_id' },
  ],
};

/** What a read of an artifact selects. */
export const ARTIFACT_COLUMNS = selectList(ARTIFACTS_TABLE);

export const toArtifact = rowReader(ARTIFACTS_TABLE);

export type { Row as ArtifactRow };

/** Rows of many runs' artifacts, in their order, grouped by run. */
export function groupByRun(rows: readonly Row[]): Map<string, ArtifactRecord[]> {
  const found = new Map<string, ArtifactRecord[]>();
  for (const row of rows) {
    const artifact = toArtifact(row);
    const list = found.get(artifact.runId) ?? [];
    list.push(artifact);
    found.set(artifact.runId, list);
  }
  return found;
}

/** The record and stored form of an artifact an execution reported. */
export function artifactWrite(uid: string, runId: string, at: string, artifact: NewArtifact): ArtifactWrite {
  return { uid, runId, type: artifact.type, createdAt: at, data: artifact.data, sizeBytes: artifact.content?.length ?? 0, content: artifact.content };
}
