import { z } from 'zod';

export const ARTIFACT_TYPES = ['PLAN', 'PULL_REQUEST', 'SCREENSHOT', 'FILE', 'EXTERNAL_REFERENCE'] as const;
export type KnownArtifactType = (typeof ARTIFACT_TYPES)[number];

const created_at = z.string().describe('RFC 3339');

export const PlanArtifactSchema = z.looseObject({
  artifact_type: z.literal('PLAN'),
  created_at,
  data: z.looseObject({
    document_uid: z.string(),
    artifact_uid: z.string().optional(),
    notebook_uid: z.string().optional(),
    title: z.string().optional(),
    url: z.string().optional(),
  }),
});
export const PullRequestArtifactSchema = z.looseObject({
  artifact_type: z.literal('PULL_REQUEST'),
  created_at,
  data: z.looseObject({ url: z.string(), branch: z.string() }),
});
export const ScreenshotArtifactSchema = z.looseObject({
  artifact_type: z.literal('SCREENSHOT'),
  created_at,
  data: z.looseObject({ artifact_uid: z.string(), mime_type: z.string(), description: z.string().optional() }),
});
export const FileArtifactSchema = z.looseObject({
  artifact_type: z.literal('FILE'),
  created_at,
  data: z.looseObject({
    artifact_uid: z.string(),
    filename: z.string(),
    filepath: z.string(),
    mime_type: z.string(),
    description: z.string().optional(),
    size_bytes: z.number().optional(),
    title: z.string().optional(),
  }),
});
export const ExternalReferenceArtifactSchema = z.looseObject({
  artifact_type: z.literal('EXTERNAL_REFERENCE'),
  created_at,
  data: z.looseObject({
    reference_type: z.string().optional(),
    url: z.string(),
    title: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
});
/** An artifact of a type this client does not know yet: kept as it came. */
export const UnknownArtifactSchema = z.looseObject({
  artifact_type: z.string(),
  created_at: z.string().optional(),
  data: z.unknown().optional(),
});

/** What a run produced, as RunItem.artifacts lists it; unknown types are kept. */
export const ArtifactItemSchema = z
  .union([
    PlanArtifactSchema,
    PullRequestArtifactSchema,
    ScreenshotArtifactSchema,
    FileArtifactSchema,
    ExternalReferenceArtifactSchema,
    UnknownArtifactSchema,
  ])
  .describe('An artifact of a run: plan, pull request, screenshot, file or external reference');
export type ArtifactItem = z.infer<typeof ArtifactItemSchema>;

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
