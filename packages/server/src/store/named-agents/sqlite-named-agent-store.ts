import type Database from 'better-sqlite3';
import { NAMED_AGENTS } from './named-agent-table.js';
import type { NamedAgentRecord, NamedAgentStore } from './named-agent-store.js';
import { SqliteOwnedRecords } from '../sqlite-owned-records.js';

/** Named agents in the runs database (migration 2). */
export class SqliteNamedAgentStore extends SqliteOwnedRecords<NamedAgentRecord> implements NamedAgentStore {
  constructor(db: Database.Database) {
    super(db, NAMED_AGENTS);
  }
}
