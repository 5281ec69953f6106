import type { RunStore } from './run-store.js';

/** A file given with the run at create, as the agent receives it. */
export interface RunAttachment {
  file_name: string;
  mime_type: string;
  data: Buffer;
}

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
