import type { RunAttachment } from '../executors/execution-input.js';
import type { RunStore } from './run-store.js';

/** The files a run was created with, as the agent receives them. */
export interface RunAttachmentSource {
  list(runId: string): Promise<RunAttachment[]>;
}

/** The store's attachments (kept apart from the run, decoded, in the order given) for the agent. */
export function runAttachmentSource(store: Pick<RunStore, 'getAttachments'>): RunAttachmentSource {
  return {
    async list(runId) {
      const files = await store.getAttachments(runId);
      return files.map((f) => ({ file_name: f.fileName, mime_type: f.mimeType, data: f.data }));
    },
  };
}
