import { z } from 'zod';

/** The artifact types the contract names. A newer server may send others; they are kept. */
export const KNOWN_ARTIFACT_TYPES = ['PLAN', 'PULL_REQUEST', 'SCREENSHOT', 'FILE', 'EXTERNAL_REFERENCE'] as const;
export type KnownArtifactType = (typeof KNOWN_ARTIFACT_TYPES)[number];

export const ArtifactTypeSchema = z.enum(KNOWN_ARTIFACT_TYPES, {
  error: `must be one of ${KNOWN_ARTIFACT_TYPES.join(', ')}`,
});

const createdAt = z.string().describe('RFC 3339');

export const PlanArtifactSchema = z.looseObject({
  artifact_type: z.literal('PLAN'),
  created_at: createdAt,
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
  created_at: createdAt,
  data: z.looseObject({ branch: z.string(), url: z.string(), draft: z.boolean().optional().describe('Extension: opened as a draft by the local server') }),
});

export const ScreenshotArtifactSchema = z.looseObject({
  artifact_type: z.literal('SCREENSHOT'),
  created_at: createdAt,
  data: z.looseObject({
    artifact_uid: z.string(),
    mime_type: z.string(),
    description: z.string().optional(),
  }),
});

export const FileArtifactSchema = z.looseObject({
  artifact_type: z.literal('FILE'),
  created_at: createdAt,
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
  created_at: createdAt,
  data: z.looseObject({
    reference_type: z.string(),
    url: z.string(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    title: z.string().optional(),
  }),
});

export const KnownArtifactItemSchema = z.discriminatedUnion('artifact_type', [
  PlanArtifactSchema,
  PullRequestArtifactSchema,
  ScreenshotArtifactSchema,
  FileArtifactSchema,
  ExternalReferenceArtifactSchema,
]);

export type PlanArtifact = z.infer<typeof PlanArtifactSchema>;
export type PullRequestArtifact = z.infer<typeof PullRequestArtifactSchema>;
export type ScreenshotArtifact = z.infer<typeof ScreenshotArtifactSchema>;
export type FileArtifact = z.infer<typeof FileArtifactSchema>;
export type ExternalReferenceArtifact = z.infer<typeof ExternalReferenceArtifactSchema>;
export type KnownArtifactItem = z.infer<typeof KnownArtifactItemSchema>;

/** An artifact of a type this package does not know yet, kept as it came. */
export interface UnknownArtifactItem {
  artifact_type: string;
  created_at?: string;
  data?: unknown;
  [key: string]: unknown;
}

const UnknownArtifactItemSchema = z
  .looseObject({ artifact_type: z.string().min(1), created_at: z.string().optional(), data: z.unknown().optional() })
  .refine((value) => !(KNOWN_ARTIFACT_TYPES as readonly string[]).includes(value.artifact_type), {
    message: 'does not match the schema of its artifact_type',
  }) as unknown as z.ZodType<UnknownArtifactItem>;

/**
 * Something a run produced, discriminated by `artifact_type`. A known type must match its
 * schema; an unknown type is kept, not dropped. Narrow with `isArtifactOfType`.
 */
export const ArtifactItemSchema = z.union([KnownArtifactItemSchema, UnknownArtifactItemSchema]);
export type ArtifactItem = KnownArtifactItem | UnknownArtifactItem;

/** Narrows an artifact to one known type: `if (isArtifactOfType(a, 'PULL_REQUEST')) a.data.url`. */
export function isArtifactOfType<T extends KnownArtifactType>(
  artifact: ArtifactItem,
  type: T,
): artifact is Extract<KnownArtifactItem, { artifact_type: T }> {
  return artifact.artifact_type === type;
}
