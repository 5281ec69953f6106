import { z } from 'zod';

const created_at = z.string().describe('RFC 3339');

const downloadData = {
  content_type: z.string(),
  download_url: z.string().describe('A time-limited link that needs no API key'),
  expires_at: z.string().describe('RFC 3339: when download_url stops working'),
  description: z.string().optional(),
};

export const PlanArtifactResponseSchema = z.looseObject({
  artifact_uid: z.string(),
  artifact_type: z.literal('PLAN'),
  created_at,
  data: z.looseObject({
    document_uid: z.string(),
    notebook_uid: z.string(),
    content: z.string(),
    content_type: z.string(),
    title: z.string().optional(),
    url: z.string().optional(),
  }),
});
export const ScreenshotArtifactResponseSchema = z.looseObject({
  artifact_uid: z.string(),
  artifact_type: z.literal('SCREENSHOT'),
  created_at,
  data: z.looseObject(downloadData),
});
export const FileArtifactResponseSchema = z.looseObject({
  artifact_uid: z.string(),
  artifact_type: z.literal('FILE'),
  created_at,
  data: z.looseObject({
    ...downloadData,
    filename: z.string(),
    filepath: z.string().optional(),
    size_bytes: z.number().optional(),
    title: z.string().optional(),
  }),
});

/** `GET /agent/artifacts/{artifactUid}`: plans with their content, files and screenshots with a download link. */
export const ArtifactResponseSchema = z
  .union([
    PlanArtifactResponseSchema,
    ScreenshotArtifactResponseSchema,
    FileArtifactResponseSchema,
    z.looseObject({ artifact_uid: z.string(), artifact_type: z.string(), created_at: z.string().optional(), data: z.unknown().optional() }),
  ])
  .describe('One artifact, with a download link for files and screenshots');
export type ArtifactResponse = z.infer<typeof ArtifactResponseSchema>;
export type FileArtifactResponse = z.infer<typeof FileArtifactResponseSchema>;
export type ScreenshotArtifactResponse = z.infer<typeof ScreenshotArtifactResponseSchema>;
export type PlanArtifactResponse = z.infer<typeof PlanArtifactResponseSchema>;

/** The artifact types whose bytes can be downloaded. */
export function isDownloadableArtifact(
  artifact: ArtifactResponse,
): artifact is FileArtifactResponse | ScreenshotArtifactResponse {
  return artifact.artifact_type === 'FILE' || artifact.artifact_type === 'SCREENSHOT';
}
