import type { OwnedPage, OwnedPageQuery } from './owned-page.js';

/** A named agent as stored: its members as the caller gave them, plus bookkeeping. */
export interface NamedAgentRecord {
  uid: string;
  name: string;
  /** Every member of the create/update body except `name`. */
  body: Record<string, unknown>;
  /** The principal that created it. */
  creatorUid: string;
  createdAt: string;
  updatedAt: string;
}

/** Storage of named agents (the contract's agent identities). */
export interface NamedAgentStore {
  insert(identity: NamedAgentRecord): Promise<void>;
  get(uid: string): Promise<NamedAgentRecord | undefined>;
  /** Oldest first. */
  list(): Promise<NamedAgentRecord[]>;
  /** A page, oldest first, of one creator's named agents (or all), filtered in the query. */
  page(query: OwnedPageQuery): Promise<OwnedPage<NamedAgentRecord>>;
  replace(identity: NamedAgentRecord): Promise<boolean>;
  delete(uid: string): Promise<boolean>;
}
