import type Database from 'better-sqlite3';
import { toIdentity as toRecord, type IdentityRow } from './identity-row.js';
import type { IdentityRecord, IdentityStore } from './identity-store.js';

/** Named agents in the runs database (migration 2). */
export class SqliteIdentityStore implements IdentityStore {
  constructor(private readonly db: Database.Database) {}

  async insert(identity: IdentityRecord): Promise<void> {
    this.db
      .prepare('INSERT INTO agent_identities (uid, name, body, creator_uid, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(identity.uid, identity.name, JSON.stringify(identity.body), identity.creatorUid, identity.createdAt, identity.updatedAt);
  }

  async get(uid: string): Promise<IdentityRecord | undefined> {
    const row = this.db.prepare('SELECT uid, name, body, creator_uid, created_at, updated_at FROM agent_identities WHERE uid = ?').get(uid) as
      | IdentityRow
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<IdentityRecord[]> {
    return (this.db.prepare('SELECT uid, name, body, creator_uid, created_at, updated_at FROM agent_identities ORDER BY seq').all() as IdentityRow[]).map(
      toRecord,
    );
  }

  async replace(identity: IdentityRecord): Promise<boolean> {
    const info = this.db
      .prepare('UPDATE agent_identities SET name = ?, body = ?, updated_at = ? WHERE uid = ?')
      .run(identity.name, JSON.stringify(identity.body), identity.updatedAt, identity.uid);
    return info.changes > 0;
  }

  async delete(uid: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM agent_identities WHERE uid = ?').run(uid).changes > 0;
  }
}
