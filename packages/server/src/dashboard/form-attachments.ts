import { RUN_REQUEST_LIMITS } from '@agent-runs/core/contract';
import { invalidField } from '../domain/invalid-request-input.js';
import type { PostedFile } from './multipart-form.js';

const mib = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;

/** What the attachment limits are, as a form's error says them. */
export function attachmentLimits(): string {
  const { attachments, attachmentBytes, attachmentsTotalBytes } = RUN_REQUEST_LIMITS;
  return `at most ${attachments} files, each at most ${mib(attachmentBytes)}, ${mib(attachmentsTotalBytes)} together`;
}

/** A form's files as the create request's `attachments`, or an error naming the field and the limit passed. */
export function attachmentsOf(files: readonly PostedFile[]): { file_name: string; mime_type: string; data: string }[] {
  const { attachments, attachmentBytes, attachmentsTotalBytes } = RUN_REQUEST_LIMITS;
  const chosen = files.filter((f) => f.field === 'attachments');
  if (chosen.length > attachments) throw invalidField('attachments', `${chosen.length} files chosen; attach ${attachmentLimits()}.`);
  const large = chosen.find((f) => f.data.length > attachmentBytes);
  if (large) throw invalidField('attachments', `"${large.fileName}" is ${mib(large.data.length)} (${large.data.length} bytes); attach ${attachmentLimits()}.`);
  const total = chosen.reduce((sum, f) => sum + f.data.length, 0);
  if (total > attachmentsTotalBytes) throw invalidField('attachments', `the files are ${mib(total)} together; attach ${attachmentLimits()}.`);
  return chosen.map((f) => ({ file_name: f.fileName, mime_type: f.mimeType, data: f.data.toString('base64') }));
}

