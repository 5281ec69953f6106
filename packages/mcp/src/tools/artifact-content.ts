import { runArtifacts, summarizeArtifact, visibleText, type RunItem } from '@agent-runs/core';
import type { ContentBlock } from '@modelcontextprotocol/server';
import { artifactUri } from '../resources/artifact-resource.js';

/** A run's artifacts as tool content: a line listing them, and a resource link to each readable one. */
export function artifactContent(run: RunItem): ContentBlock[] {
  const artifacts = runArtifacts(run).map(summarizeArtifact);
  if (artifacts.length === 0) return [];
  // Run text: shown with its control characters escaped, as the run summary is (a host may print it on a terminal).
  const lines = artifacts.map((a) =>
    visibleText(`- ${a.type}: ${a.name}${a.url && a.url !== a.name ? ` ${a.url}` : ''}${a.sizeBytes !== undefined ? ` (${a.sizeBytes} bytes)` : ''}`),
  );
  const links: ContentBlock[] = artifacts
    .filter((a) => a.uid !== undefined)
    .map((a) => ({ type: 'resource_link', uri: artifactUri(run.run_id, a.uid!), name: a.name, description: `${a.type} of run ${run.run_id}` }));
  return [{ type: 'text', text: `Artifacts:\n${lines.join('\n')}` }, ...links];
}
