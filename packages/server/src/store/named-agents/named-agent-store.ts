import type { OwnedRecords } from '../owned-records.js';

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
export type NamedAgentStore = OwnedRecords<NamedAgentRecord>;
