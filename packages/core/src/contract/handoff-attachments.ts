import { z } from 'zod';

/** `GET /agent/runs/{runId}/handoff/attachments`: time-limited links to the last execution's files. */
export const HandoffAttachmentsResponseSchema = z
  .looseObject({
    attachments: z.array(
      z.looseObject({
        attachment_id: z.string(),
        download_url: z.string(),
        filename: z.string(),
        mime_type: z.string().optional(),
      }),
    ),
  })
  .describe("Download links of a run's handoff files");
export type HandoffAttachmentsResponse = z.infer<typeof HandoffAttachmentsResponseSchema>;
