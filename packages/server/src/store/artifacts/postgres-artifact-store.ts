import type pg from 'pg';
import {
  ARTIFACT_COLUMNS as COLUMNS,
  ARTIFACTS_TABLE,
  artifactWrite,
  groupByRun,
  toArtifact as toRecord,
  type ArtifactRow,
} from './artifact-table.js';
import type { ArtifactRecord, ArtifactStore, NewArtifact } from './artifact-store.js';
import { inTransaction, toNumber } from '../postgres-transaction.js';
import { postgresDialect } from '../sql-dialect.js';
import { insertStatement } from '../table-description.js';
import { timeOrderedId } from '../time-ordered-id.js';

const INSERT = insertStatement(ARTIFACTS_TABLE, postgresDialect);

/** Artifacts in PostgreSQL, file bytes (bytea) beside their row: the servers share nothing but the database. */
export class PostgresArtifactStore implements ArtifactStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(runId: string, artifacts: readonly NewArtifact[], at: string): Promise<ArtifactRecord[]> {
    return inTransaction(this.pool, async (client) => {
      const added: ArtifactRecord[] = [];
      for (const artifact of artifacts) {
        const write = artifactWrite(timeOrderedId(), runId, at, artifact);
        await client.query(INSERT.sql, INSERT.values(write));
        const { content: _content, ...record } = write;
        added.push(record);
      }
      return added;
    });
  }

  async listByRun(runId: string): Promise<ArtifactRecord[]> {
    const { rows } = await this.pool.query<ArtifactRow>({
      name: 'agent-runs-artifacts-by-run',
      text: `SELECT ${COLUMNS} FROM artifacts WHERE run_id = $1 ORDER BY seq`,
      values: [runId],
    });
    return rows.map(toRecord);
  }

  async listByRuns(runIds: readonly string[]): Promise<Map<string, ArtifactRecord[]>> {
    if (runIds.length === 0) return new Map();
    const { rows } = await this.pool.query<ArtifactRow>(`SELECT ${COLUMNS} FROM artifacts WHERE run_id = ANY($1::text[]) ORDER BY seq`, [
      [...runIds],
    ]);
    return groupByRun(rows);
  }

  async get(uid: string): Promise<ArtifactRecord | undefined> {
    const { rows } = await this.pool.query<ArtifactRow>(`SELECT ${COLUMNS} FROM artifacts WHERE uid = $1`, [uid]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async content(uid: string): Promise<Buffer | undefined> {
    const { rows } = await this.pool.query<{ content: Buffer | null }>('SELECT content FROM artifacts WHERE uid = $1', [uid]);
    return rows[0]?.content ?? undefined;
  }

  async runBytes(runId: string): Promise<number> {
    const { rows } = await this.pool.query<{ total: string }>('SELECT COALESCE(SUM(size_bytes), 0) AS total FROM artifacts WHERE run_id = $1', [
      runId,
    ]);
    return toNumber(rows[0]!.total);
  }
}
