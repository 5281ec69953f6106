import type { IdentityRecord } from './identity-store.js';

/** An `agent_identities` row as both databases answer it. */
export interface IdentityRow {
  uid: string;
  name: string;
  body: string;
  creator_uid: string;
  created_at: string;
  updated_at: string;
}

export const IDENTITY_COLUMNS = 'uid, name, body, creator_uid, created_at, updated_at';

export const toIdentity = (row: IdentityRow): IdentityRecord => ({
  uid: row.uid,
  name: row.name,
  body: JSON.parse(row.body) as Record<string, unknown>,
  creatorUid: row.creator_uid,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
