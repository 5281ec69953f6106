import type Database from 'better-sqlite3';
import {
  ARTIFACT_COLUMNS as COLUMNS,
  ARTIFACTS_TABLE,
  artifactWrite,
  groupByRun,
  toArtifact as toRecord,
  type ArtifactRow,
} from './artifact-table.js';
import type { ArtifactRecord, ArtifactStore, NewArtifact } from './artifact-store.js';
import { sqliteDialect } from '../sql-dialect.js';
import { sqliteOrFail } from '../sqlite-or-fail.js';
import { insertStatement } from '../table-description.js';
import { timeOrderedId } from '../time-ordered-id.js';

const INSERT = insertStatement(ARTIFACTS_TABLE, sqliteDialect);
const MAX_KEPT_COUNT = 1000;

/** Artifacts in the runs database (tables from migration 2); file bytes as BLOBs beside their row. */
export class SqliteArtifactStore implements ArtifactStore {
  private readonly insert: Database.Statement;
  private readonly byRun: Database.Statement;
  private readonly byUid: Database.Statement;
  private readonly contentByUid: Database.Statement;
  private readonly bytesByRun: Database.Statement;
  /** `listByRuns` by the number of ids: a list page asks with the same count each time, and preparing costs more than the query. */
  private readonly byRuns = new Map<number, Database.Statement>();

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(sqliteOrFail(INSERT.sql));
    this.byRun = db.prepare(`SELECT ${COLUMNS} FROM artifacts WHERE run_id = ? ORDER BY seq`);
    this.byUid = db.prepare(`SELECT ${COLUMNS} FROM artifacts WHERE uid = ?`);
    this.contentByUid = db.prepare('SELECT content FROM artifacts WHERE uid = ?');
    this.bytesByRun = db.prepare('SELECT COALESCE(SUM(size_bytes), 0) AS total FROM artifacts WHERE run_id = ?');
  }

  async add(runId: string, artifacts: readonly NewArtifact[], at: string): Promise<ArtifactRecord[]> {
    return this.db.transaction(() =>
      artifacts.map((artifact) => {
        const write = artifactWrite(timeOrderedId(), runId, at, artifact);
        this.insert.run(INSERT.values(write));
        const { content: _content, ...record } = write;
        return record;
      }),
    )();
  }

  async listByRun(runId: string): Promise<ArtifactRecord[]> {
    return (this.byRun.all(runId) as ArtifactRow[]).map(toRecord);
  }

  async listByRuns(runIds: readonly string[]): Promise<Map<string, ArtifactRecord[]>> {
    if (runIds.length === 0) return new Map();
    let statement = this.byRuns.get(runIds.length);
    if (!statement) {
      statement = this.db.prepare(`SELECT ${COLUMNS} FROM artifacts WHERE run_id IN (${runIds.map(() => '?').join(', ')}) ORDER BY seq`);
      // Counts up to a large page are kept; a rare larger one is prepared for its call only.
      if (runIds.length <= MAX_KEPT_COUNT) this.byRuns.set(runIds.length, statement);
    }
    return groupByRun(statement.all(...runIds) as ArtifactRow[]);
  }

  async get(uid: string): Promise<ArtifactRecord | undefined> {
    const row = this.byUid.get(uid) as ArtifactRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async content(uid: string): Promise<Buffer | undefined> {
    const row = this.contentByUid.get(uid) as { content: Buffer | null } | undefined;
    return row?.content ?? undefined;
  }

  async runBytes(runId: string): Promise<number> {
    return (this.bytesByRun.get(runId) as { total: number }).total;
  }
}
