import type { OwnedPage, OwnedPageQuery } from './owned-page.js';

/** A named agent as stored: its members as the caller gave them, plus bookkeeping. */
export interface IdentityRecord {
  uid: string;
  name: string;
  /** Every member of the create/update body except `name`. */
  body: Record<string, unknown>;
  /** The principal that created it. */
  creatorUid: string;
  createdAt: string;
  updatedAt: string;
}

/** Storage of named agents ("identities"). */
export interface IdentityStore {
  insert(identity: IdentityRecord): Promise<void>;
  get(uid: string): Promise<IdentityRecord | undefined>;
  /** Oldest first. */
  list(): Promise<IdentityRecord[]>;
  /** A page, oldest first, of one creator's named agents (or all), filtered in the query. */
  page(query: OwnedPageQuery): Promise<OwnedPage<IdentityRecord>>;
  replace(identity: IdentityRecord): Promise<boolean>;
  delete(uid: string): Promise<boolean>;
}
