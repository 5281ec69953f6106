import type pg from 'pg';
import { IDENTITY_COLUMNS as COLUMNS, toIdentity as toRecord, type IdentityRow } from './identity-row.js';
import type { IdentityRecord, IdentityStore } from './identity-store.js';

/** Named agents in PostgreSQL. */
export class PostgresIdentityStore implements IdentityStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(identity: IdentityRecord): Promise<void> {
    await this.pool.query(`INSERT INTO agent_identities (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
      identity.uid,
      identity.name,
      JSON.stringify(identity.body),
      identity.creatorUid,
      identity.createdAt,
      identity.updatedAt,
    ]);
  }

  async get(uid: string): Promise<IdentityRecord | undefined> {
    const { rows } = await this.pool.query<IdentityRow>(`SELECT ${COLUMNS} FROM agent_identities WHERE uid = $1`, [uid]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async list(): Promise<IdentityRecord[]> {
    const { rows } = await this.pool.query<IdentityRow>(`SELECT ${COLUMNS} FROM agent_identities ORDER BY seq`);
    return rows.map(toRecord);
  }

  async replace(identity: IdentityRecord): Promise<boolean> {
    const result = await this.pool.query('UPDATE agent_identities SET name = $1, body = $2, updated_at = $3 WHERE uid = $4', [
      identity.name,
      JSON.stringify(identity.body),
      identity.updatedAt,
      identity.uid,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async delete(uid: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM agent_identities WHERE uid = $1', [uid]);
    return (result.rowCount ?? 0) > 0;
  }
}
