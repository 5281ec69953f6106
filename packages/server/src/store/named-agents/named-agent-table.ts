import type { NamedAgentRecord } from './named-agent-store.js';
import type { OwnedTable } from '../owned-records.js';
import type { TableDescription } from '../table-description.js';

/** The `agent_identities` table (named agents): what both stores write and read, column by column. */
export const IDENTITIES_TABLE: TableDescription<NamedAgentRecord, NamedAgentRecord> = {
  name: 'agent_identities',
  columns: [
    { name: 'seq', type: 'integer', identity: 'increasing' },
    { name: 'uid', type: 'text', write: (i) => i.uid, read: 'uid', notNull: true, unique: true },
    { name: 'name', type: 'text', write: (i) => i.name, read: 'name', notNull: true },
    { name: 'body', type: 'json', write: (i) => i.body, read: 'body', notNull: true },
    { name: 'creator_uid', type: 'text', write: (i) => i.creatorUid, read: 'creatorUid', notNull: true },
    { name: 'created_at', type: 'text', write: (i) => i.createdAt, read: 'createdAt', notNull: true },
    { name: 'updated_at', type: 'text', write: (i) => i.updatedAt, read: 'updatedAt', notNull: true },
  ],
};

/** Named agents as records their creators keep: by uid; an edit rewrites the name and body. */
export const NAMED_AGENTS: OwnedTable<NamedAgentRecord> = {
  table: IDENTITIES_TABLE,
  key: 'uid',
  replaced: ['name', 'body', 'updated_at'],
  ownedBy: (_dialect, placeholder) => `creator_uid = ${placeholder}`,
};
