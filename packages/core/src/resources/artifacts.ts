import { ArtifactResponseSchema, isDownloadableArtifact, type ArtifactResponse } from '../contract/artifact-response.js';
import { APIPromise, type WithResponse } from '../internal/api-promise.js';
import { pathSegment, type Send } from '../internal/resource-helpers.js';
import type { RequestOptions } from '../internal/options.js';
import { ArtifactNotDownloadableError } from '../errors/artifact-not-downloadable-error.js';
import type { DownloadFn, DownloadResult, DownloadTarget } from '../internal/download-url.js';

export interface ArtifactDownloadResult extends DownloadResult {
  /** The artifact as fetched, with the link used. */
  artifact: ArtifactResponse;
}

function artifactPath(uid: string): string {
  return `/agent/artifacts/${pathSegment('artifactUid', uid)}`;
}

/** `client.artifacts`: what runs produced. */
export class Artifacts {
  constructor(
    private readonly send: Send,
    private readonly download_: DownloadFn,
  ) {}

  /**
   * One artifact (`GET /agent/artifacts/{uid}`): a PLAN with its content, a FILE or
   * SCREENSHOT with a `download_url` that works without a key until `expires_at`.
   */
  get(uid: string, options: RequestOptions = {}): APIPromise<ArtifactResponse> {
    let promise: Promise<WithResponse<ArtifactResponse>>;
    try {
      promise = this.send({ method: 'GET', path: artifactPath(uid), schema: ArtifactResponseSchema, ...options });
    } catch (error) {
      promise = Promise.reject(error);
    }
    return new APIPromise(promise);
  }

  /**
   * Streams a FILE or SCREENSHOT to a path (`{ to: 'out/report.pdf' }`, written whole or
   * not at all) or a writable stream (`{ to: process.stdout }`), fetching a fresh link first.
   * A PLAN throws ArtifactNotDownloadableError; an expired or altered link a PermissionDeniedError.
   */
  async download(uid: string, target: DownloadTarget, options: RequestOptions = {}): Promise<ArtifactDownloadResult> {
    const artifact = await this.get(uid, { signal: target.signal, ...options });
    if (!isDownloadableArtifact(artifact)) throw new ArtifactNotDownloadableError(artifact.artifact_uid, artifact.artifact_type);
    const result = await this.download_(artifact.data.download_url, target);
    return { ...result, artifact };
  }
}
