import * as core from '@actions/core';
import { runArtifacts, summarizeArtifact, type AgentRunsClient, type RunItem } from '@agent-runs/core';

/** A job summary lists at most this many artifacts; the `artifacts` output has them all. */
export const MAX_SUMMARY_ARTIFACTS = 20;

/** One artifact as the job summary shows it. */
export interface ArtifactLink {
  type: string;
  name: string;
  /** Where it can be opened: a pull request's or reference's URL, or a file's signed download link. */
  url?: string | undefined;
  /** When a download link stops working. */
  expiresAt?: string;
}

/**
 * The run's artifacts with links: pull requests and references link where they live;
 * files and screenshots get a fresh signed download link (it expires, and the summary says when).
 */
export async function artifactLinks(client: AgentRunsClient, run: RunItem): Promise<ArtifactLink[]> {
  const links: ArtifactLink[] = [];
  for (const artifact of runArtifacts(run).slice(0, MAX_SUMMARY_ARTIFACTS)) {
    const a = summarizeArtifact(artifact);
    const link: ArtifactLink = { type: a.type, name: a.name, url: a.url };
    if (a.uid && (a.type === 'FILE' || a.type === 'SCREENSHOT')) {
      try {
        const full = await client.artifacts.get(a.uid);
        const data = full.data as { download_url?: unknown; expires_at?: unknown };
        if (typeof data.download_url === 'string') link.url = data.download_url;
        if (typeof data.expires_at === 'string') link.expiresAt = data.expires_at;
      } catch (error) {
        // A summary without one link is better than a failed step.
        core.debug(`No download link for artifact ${a.uid}: ${(error as Error).message}`);
      }
    }
    links.push(link);
  }
  return links;
}
