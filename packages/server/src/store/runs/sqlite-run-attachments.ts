import type Database from 'better-sqlite3';
import { attachmentsQuery, RUN_ATTACHMENTS_TABLE } from './run-attachment-table.js';
import type { StoredAttachment } from './run-record.js';
import { sqliteDialect } from '../sql-dialect.js';
import { insertStatement, rowReader, type Row } from '../table-description.js';

const INSERT = insertStatement(RUN_ATTACHMENTS_TABLE, sqliteDialect);
const READ = rowReader(RUN_ATTACHMENTS_TABLE);

/** The files given with a run's prompt, kept apart from the run so lists never read them. */
export class SqliteRunAttachments {
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;

  constructor(db: Database.Database) {
    this.insert = db.prepare(INSERT.sql);
    this.select = db.prepare(attachmentsQuery('?'));
  }

  /** Call inside the transaction that inserts the run. */
  add(runId: string, attachments: readonly StoredAttachment[] | undefined): void {
    (attachments ?? []).forEach((attachment, position) => this.insert.run(INSERT.values({ runId, position, attachment })));
  }

  get(runId: string): StoredAttachment[] {
    return (this.select.all(runId) as Row[]).map(READ);
  }
}
