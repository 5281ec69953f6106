import type { ArtifactItem } from '../contract/artifact-item.js';
import { summarizeArtifact } from './artifact-summary.js';
import { safeFileName } from './safe-file-name.js';

/** Extensions for image types a screenshot comes in. */
const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
};

/**
 * The file name a FILE or SCREENSHOT is saved under: the name it is listed by
 * (`summarizeArtifact`), its last path segment only, and for a screenshot whose name has no
 * extension one from its image type. An artifact as a run lists it or as `artifacts.get` answers.
 */
export function artifactFileName(artifact: { artifact_type: string; artifact_uid?: string; data?: unknown }): string {
  const data = (artifact.data ?? {}) as Record<string, unknown>;
  const uid = artifact.artifact_uid ?? (typeof data.artifact_uid === 'string' ? data.artifact_uid : 'artifact');
  const screenshot = artifact.artifact_type === 'SCREENSHOT';
  const type = [data.content_type, data.mime_type].find((v): v is string => typeof v === 'string');
  const extension = screenshot ? (IMAGE_EXTENSIONS[type?.split(';')[0]!.trim() ?? ''] ?? '.png') : '';
  const { name } = summarizeArtifact({ ...artifact, data: { ...data, artifact_uid: uid } } as ArtifactItem);
  const safe = safeFileName(name, `${uid}${extension}`);
  return screenshot && !/\.[A-Za-z0-9]{1,5}$/.test(safe) ? `${safe}${extension}` : safe;
}
