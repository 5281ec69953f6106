import type pg from 'pg';
import {
  IDENTITIES_TABLE,
  IDENTITY_COLUMNS as COLUMNS,
  IDENTITY_REPLACED_COLUMNS,
  toAgentIdentity as toRecord,
  type NamedAgentRow,
} from './named-agent-table.js';
import type { NamedAgentRecord, NamedAgentStore } from './named-agent-store.js';
import { toOwnedPage, type OwnedPage, type OwnedPageQuery } from './owned-page.js';
import { postgresDialect } from './sql-dialect.js';
import { insertStatement, updateStatement } from './table-description.js';

const INSERT = insertStatement(IDENTITIES_TABLE, postgresDialect);
const REPLACE = updateStatement(IDENTITIES_TABLE, postgresDialect, IDENTITY_REPLACED_COLUMNS, 'uid');

/** Named agents in PostgreSQL. */
export class PostgresNamedAgentStore implements NamedAgentStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(identity: NamedAgentRecord): Promise<void> {
    await this.pool.query(INSERT.sql, INSERT.values(identity));
  }

  async get(uid: string): Promise<NamedAgentRecord | undefined> {
    const { rows } = await this.pool.query<NamedAgentRow>(`SELECT ${COLUMNS} FROM agent_identities WHERE uid = $1`, [uid]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async list(): Promise<NamedAgentRecord[]> {
    const { rows } = await this.pool.query<NamedAgentRow>(`SELECT ${COLUMNS} FROM agent_identities ORDER BY seq`);
    return rows.map(toRecord);
  }

  async page({ creatorUid, afterSeq, limit }: OwnedPageQuery): Promise<OwnedPage<NamedAgentRecord>> {
    const mine = creatorUid === undefined ? '' : 'AND creator_uid = $3';
    const { rows } = await this.pool.query<NamedAgentRow & { seq: string }>(
      `SELECT seq, ${COLUMNS} FROM agent_identities WHERE seq > $1 ${mine} ORDER BY seq LIMIT $2`,
      creatorUid === undefined ? [afterSeq, limit + 1] : [afterSeq, limit + 1, creatorUid],
    );
    return toOwnedPage(rows, limit, toRecord);
  }

  async replace(identity: NamedAgentRecord): Promise<boolean> {
    const result = await this.pool.query(REPLACE.sql, REPLACE.values(identity));
    return (result.rowCount ?? 0) > 0;
  }

  async delete(uid: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM agent_identities WHERE uid = $1', [uid]);
    return (result.rowCount ?? 0) > 0;
  }
}
