import type pg from 'pg';
import { NAMED_AGENTS } from './named-agent-table.js';
import type { NamedAgentRecord, NamedAgentStore } from './named-agent-store.js';
import { PostgresOwnedRecords } from '../postgres-owned-records.js';

/** Named agents in PostgreSQL. */
export class PostgresNamedAgentStore extends PostgresOwnedRecords<NamedAgentRecord> implements NamedAgentStore {
  constructor(pool: pg.Pool) {
    super(pool, NAMED_AGENTS);
  }
}
