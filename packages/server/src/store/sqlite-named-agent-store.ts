import type Database from 'better-sqlite3';
import {
  IDENTITIES_TABLE,
  IDENTITY_COLUMNS as COLUMNS,
  IDENTITY_REPLACED_COLUMNS,
  toAgentIdentity as toRecord,
  type NamedAgentRow,
} from './named-agent-table.js';
import type { NamedAgentRecord, NamedAgentStore } from './named-agent-store.js';
import { toOwnedPage, type OwnedPage, type OwnedPageQuery } from './owned-page.js';
import { sqliteDialect } from './sql-dialect.js';
import { insertStatement, updateStatement } from './table-description.js';

const INSERT = insertStatement(IDENTITIES_TABLE, sqliteDialect);
const REPLACE = updateStatement(IDENTITIES_TABLE, sqliteDialect, IDENTITY_REPLACED_COLUMNS, 'uid');

/** Named agents in the runs database (migration 2). */
export class SqliteNamedAgentStore implements NamedAgentStore {
  private readonly insertOne: Database.Statement;
  private readonly replaceOne: Database.Statement;
  private readonly byUid: Database.Statement;
  private readonly all: Database.Statement;
  private readonly deleteOne: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insertOne = db.prepare(INSERT.sql);
    this.replaceOne = db.prepare(REPLACE.sql);
    this.byUid = db.prepare(`SELECT ${COLUMNS} FROM agent_identities WHERE uid = ?`);
    this.all = db.prepare(`SELECT ${COLUMNS} FROM agent_identities ORDER BY seq`);
    this.deleteOne = db.prepare('DELETE FROM agent_identities WHERE uid = ?');
  }

  async insert(identity: NamedAgentRecord): Promise<void> {
    this.insertOne.run(INSERT.values(identity));
  }

  async get(uid: string): Promise<NamedAgentRecord | undefined> {
    const row = this.byUid.get(uid) as NamedAgentRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<NamedAgentRecord[]> {
    return (this.all.all() as NamedAgentRow[]).map(toRecord);
  }

  async page({ creatorUid, afterSeq, limit }: OwnedPageQuery): Promise<OwnedPage<NamedAgentRecord>> {
    const mine = creatorUid === undefined ? '' : 'AND creator_uid = ?';
    const rows = this.db
      .prepare(`SELECT seq, ${COLUMNS} FROM agent_identities WHERE seq > ? ${mine} ORDER BY seq LIMIT ?`)
      .all(...(creatorUid === undefined ? [afterSeq, limit + 1] : [afterSeq, creatorUid, limit + 1])) as (NamedAgentRow & { seq: number })[];
    return toOwnedPage(rows, limit, toRecord);
  }

  async replace(identity: NamedAgentRecord): Promise<boolean> {
    return this.replaceOne.run(REPLACE.values(identity)).changes > 0;
  }

  async delete(uid: string): Promise<boolean> {
    return this.deleteOne.run(uid).changes > 0;
  }
}
