import type { ArtifactItem, ArtifactResponse } from '@agent-runs/core/contract';
import type { ArtifactRecord } from '../store/artifacts/artifact-store.js';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const defined = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** An artifact as RunItem.artifacts lists it. */
export function toArtifactItem(a: ArtifactRecord): ArtifactItem {
  const d = a.data;
  const base = { artifact_type: a.type, created_at: a.createdAt };
  switch (a.type) {
    case 'PLAN':
      return { ...base, artifact_type: 'PLAN', data: defined({ artifact_uid: a.uid, document_uid: str(d.document_uid) ?? a.uid, notebook_uid: str(d.notebook_uid), title: str(d.title), url: str(d.url) }) };
    case 'PULL_REQUEST':
      return { ...base, artifact_type: 'PULL_REQUEST', data: { url: str(d.url) ?? '', branch: str(d.branch) ?? '', ...(typeof d.draft === 'boolean' ? { draft: d.draft } : {}) } };
    case 'SCREENSHOT':
      return { ...base, artifact_type: 'SCREENSHOT', data: defined({ artifact_uid: a.uid, mime_type: str(d.mime_type) ?? 'image/png', description: str(d.description) }) };
    case 'FILE':
      return {
        ...base,
        artifact_type: 'FILE',
        data: defined({ artifact_uid: a.uid, filename: str(d.filename) ?? a.uid, filepath: str(d.filepath) ?? a.uid, mime_type: str(d.mime_type) ?? 'application/octet-stream', size_bytes: a.sizeBytes, description: str(d.description) }),
      };
    case 'EXTERNAL_REFERENCE':
      return { ...base, artifact_type: 'EXTERNAL_REFERENCE', data: defined({ url: str(d.url) ?? '', reference_type: str(d.reference_type) ?? 'link', title: str(d.title) }) };
  }
}

/** The artifact types `GET /agent/artifacts/{uid}` answers for (as the service: others are a 404). */
export function hasArtifactResponse(a: ArtifactRecord): boolean {
  return a.type === 'PLAN' || a.type === 'FILE' || a.type === 'SCREENSHOT';
}

/** The file name a download of the artifact is saved under. */
export function downloadName(a: ArtifactRecord): string {
  return str(a.data.filename) ?? a.uid;
}

/** `GET /agent/artifacts/{uid}`: plans with their content, files and screenshots with a signed link. */
export function toArtifactResponse(a: ArtifactRecord, link: { url: string; expiresAt: string } | undefined): ArtifactResponse {
  const d = a.data;
  const base = { artifact_uid: a.uid, created_at: a.createdAt };
  if (a.type === 'PLAN') {
    return {
      ...base,
      artifact_type: 'PLAN',
      data: defined({ document_uid: str(d.document_uid) ?? a.uid, notebook_uid: str(d.notebook_uid) ?? a.uid, title: str(d.title), url: str(d.url), content: str(d.content) ?? '', content_type: 'text/markdown' }),
    };
  }
  const download = { download_url: link?.url ?? '', expires_at: link?.expiresAt ?? '' };
  if (a.type === 'SCREENSHOT') {
    return { ...base, artifact_type: 'SCREENSHOT', data: defined({ content_type: str(d.mime_type) ?? 'image/png', ...download, description: str(d.description) }) };
  }
  return {
    ...base,
    artifact_type: 'FILE',
    data: defined({ content_type: str(d.mime_type) ?? 'application/octet-stream', ...download, filename: downloadName(a), filepath: str(d.filepath), size_bytes: a.sizeBytes }),
  };
}
