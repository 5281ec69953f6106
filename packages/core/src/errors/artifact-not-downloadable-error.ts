import { AgentRunsError } from './agent-runs-error.js';

/** `artifacts.download` of an artifact without bytes (a PLAN: read its content with `get`). */
export class ArtifactNotDownloadableError extends AgentRunsError {
  override name = 'ArtifactNotDownloadableError';
  constructor(
    readonly artifactUid: string,
    readonly artifactType: string,
  ) {
    super(`Artifact ${artifactUid} is a ${artifactType}; only FILE and SCREENSHOT artifacts have bytes to download.`);
  }
}
