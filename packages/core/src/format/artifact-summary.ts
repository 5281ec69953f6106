import type { ArtifactItem } from '../contract/artifact-item.js';

/** One artifact as adapters show it: a type, a name, the uid to fetch it by, and its link or size. */
export interface ArtifactSummary {
  type: string;
  /** A file name, a plan's title, a pull request's branch, a reference's title or URL. */
  name: string;
  /** For PLAN, FILE and SCREENSHOT: what `artifacts.get` and `download` take. */
  uid?: string | undefined;
  /** For PULL_REQUEST and EXTERNAL_REFERENCE: where it lives. */
  url?: string | undefined;
  sizeBytes?: number | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Reads what every adapter shows of an artifact, whatever its type (unknown types included). */
export function summarizeArtifact(artifact: ArtifactItem): ArtifactSummary {
  const data = (artifact.data ?? {}) as Record<string, unknown>;
  const uid = str(data.artifact_uid);
  const url = str(data.url);
  const size = typeof data.size_bytes === 'number' ? data.size_bytes : undefined;
  const name =
    str(data.filename) ?? str(data.title) ?? str(data.branch) ?? str(data.description) ?? url ?? uid ?? artifact.artifact_type;
  return {
    type: artifact.artifact_type,
    name,
    uid,
    url,
    sizeBytes: size,
  };
}

/** The first PULL_REQUEST artifact of a run, if any: its URL and branch. */
export function firstPullRequest(artifacts: readonly ArtifactItem[] | undefined): { url: string; branch: string } | undefined {
  const pr = artifacts?.find((a) => a.artifact_type === 'PULL_REQUEST');
  const data = (pr?.data ?? {}) as Record<string, unknown>;
  const url = str(data.url);
  return url ? { url, branch: str(data.branch) ?? '' } : undefined;
}

/** A run's artifacts, read leniently: RunItem keeps them as they came. */
export function runArtifacts(run: { artifacts?: unknown }): ArtifactItem[] {
  return Array.isArray(run.artifacts)
    ? (run.artifacts.filter((a) => a && typeof a === 'object' && typeof (a as { artifact_type?: unknown }).artifact_type === 'string') as ArtifactItem[])
    : [];
}
