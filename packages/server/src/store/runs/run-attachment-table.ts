import type { StoredAttachment } from './run-record.js';
import { selectList, type TableDescription } from '../table-description.js';

/** One attachment as written: the run's, at its place among the run's attachments. */
export interface RunAttachmentRow {
  runId: string;
  position: number;
  attachment: StoredAttachment;
}

/**
 * A run's attachments, apart from the run so that listing runs never reads their bytes.
 * SQLite's table keeps a rowid and makes the pair unique; PostgreSQL's is keyed by the pair.
 */
export const RUN_ATTACHMENTS_TABLE: TableDescription<RunAttachmentRow, StoredAttachment> = {
  name: 'run_attachments',
  columns: [
    { name: 'run_id', type: 'text', notNull: true, write: (r) => r.runId },
    { name: 'position', type: 'int32', notNull: true, write: (r) => r.position },
    { name: 'file_name', type: 'text', notNull: true, write: (r) => r.attachment.fileName, read: 'fileName' },
    { name: 'mime_type', type: 'text', notNull: true, write: (r) => r.attachment.mimeType, read: 'mimeType' },
    { name: 'data', type: 'bytes', notNull: true, write: (r) => r.attachment.data, read: 'data' },
  ],
  keys: [
    { kind: 'unique', on: 'run_id, position', only: 'sqlite' },
    { kind: 'primary', on: 'run_id, position', only: 'postgres' },
  ],
};

/** A run's attachments in their order, as `RUN_ATTACHMENTS_TABLE`'s reader reads them. */
export function attachmentsQuery(placeholder: string): string {
  return `SELECT ${selectList(RUN_ATTACHMENTS_TABLE)} FROM run_attachments WHERE run_id = ${placeholder} ORDER BY position`;
}
