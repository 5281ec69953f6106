import type Database from 'better-sqlite3';
import type { StoredAttachment } from './run-record.js';

/** The files given with a run's prompt, kept apart from the run so lists never read them. */
export class SqliteRunAttachments {
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;

  constructor(db: Database.Database) {
    this.insert = db.prepare('INSERT INTO run_attachments (run_id, position, file_name, mime_type, data) VALUES (?, ?, ?, ?, ?)');
    this.select = db.prepare('SELECT file_name, mime_type, data FROM run_attachments WHERE run_id = ? ORDER BY position');
  }

  /** Call inside the transaction that inserts the run. */
  add(runId: string, attachments: readonly StoredAttachment[] | undefined): void {
    (attachments ?? []).forEach((a, i) => this.insert.run(runId, i, a.fileName, a.mimeType, a.data));
  }

  get(runId: string): StoredAttachment[] {
    const rows = this.select.all(runId) as { file_name: string; mime_type: string; data: Buffer }[];
    return rows.map((r) => ({ fileName: r.file_name, mimeType: r.mime_type, data: r.data }));
  }
}
