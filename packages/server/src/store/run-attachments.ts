import type Database from 'better-sqlite3';
import type { RunAttachment } from '../executors/execution-input.js';

/** The files a run was created with, as the agent receives them. */
export interface RunAttachmentSource {
  list(runId: string): Promise<RunAttachment[]>;
}

interface StoredAttachment {
  file_name?: unknown;
  mime_type?: unknown;
  data?: unknown;
}

/** Reads the `attachments` of the create request kept with the run (base64 `data`, as sent). */
export class SqliteRunAttachments implements RunAttachmentSource {
  private readonly byRun: Database.Statement;

  constructor(db: Database.Database) {
    this.byRun = db.prepare('SELECT request FROM runs WHERE id = ?');
  }

  async list(runId: string): Promise<RunAttachment[]> {
    const row = this.byRun.get(runId) as { request: string } | undefined;
    if (!row) return [];
    const request = JSON.parse(row.request) as { attachments?: StoredAttachment[] };
    if (!Array.isArray(request.attachments)) return [];
    return request.attachments.flatMap((a) =>
      typeof a?.file_name === 'string' && typeof a.data === 'string'
        ? [{ file_name: a.file_name, mime_type: typeof a.mime_type === 'string' ? a.mime_type : 'application/octet-stream', data: Buffer.from(a.data, 'base64') }]
        : [],
    );
  }
}
