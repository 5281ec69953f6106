import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import { timeOrderedId } from '../store/time-ordered-id.js';

const KINDS = ['pull_request', 'plan', 'file', 'screenshot', 'reference'] as const;
type Kind = (typeof KINDS)[number];
const ALIASES: Record<string, Kind> = { pr: 'pull_request', 'pull-request': 'pull_request', link: 'reference' };
const DIRECTIVE = /\[simulate\s+artifact\b([^\]]*)\]/gi;

export const SIMULATE_ARTIFACT_HINT = `[simulate artifact ...] takes words among ${KINDS.join(', ')}`;

// The smallest valid PNG (1x1, transparent), so a simulated screenshot is a real image.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Reads every `[simulate artifact pr file ...]` of a text: the kinds asked for, or the problems with them. */
export function parseArtifactDirectives(text: string, field = 'prompt'): { kinds: Kind[]; problems: string[] } {
  const kinds: Kind[] = [];
  const problems: string[] = [];
  for (const match of text.matchAll(DIRECTIVE)) {
    for (const word of match[1]!.trim().split(/\s+/).filter(Boolean)) {
      const lower = word.toLowerCase();
      const kind = (KINDS as readonly string[]).includes(lower) ? (lower as Kind) : ALIASES[lower];
      if (kind) kinds.push(kind);
      else problems.push(`${field}: unknown word "${word}" in the artifact directive; ${SIMULATE_ARTIFACT_HINT}`);
    }
  }
  return { kinds, problems };
}

/** The sample artifact a simulated agent makes for each kind. */
export function simulatedArtifact(kind: Kind, runId: string, execution: number): NewArtifact {
  switch (kind) {
    case 'pull_request':
      return { type: 'PULL_REQUEST', data: { url: `https://example.com/simulated/pull/${execution}`, branch: `agent-runs/${runId}` } };
    case 'plan': {
      const uid = timeOrderedId();
      return {
        type: 'PLAN',
        data: { document_uid: uid, notebook_uid: uid, title: 'Simulated plan', content: '# Simulated plan\n\n1. Read the code.\n2. Change it.\n' },
      };
    }
    case 'file': {
      const content = Buffer.from(`A file from the simulated agent (run ${runId}, execution ${execution}).\n`);
      return { type: 'FILE', data: { filename: 'notes.txt', filepath: 'notes.txt', mime_type: 'text/plain', size_bytes: content.length }, content };
    }
    case 'screenshot':
      return {
        type: 'SCREENSHOT',
        data: { mime_type: 'image/png', description: 'screenshot.png', filename: 'screenshot.png', filepath: 'screenshot.png' },
        content: PIXEL_PNG,
      };
    case 'reference':
      return { type: 'EXTERNAL_REFERENCE', data: { url: 'https://example.com/simulated/reference', reference_type: 'link', title: 'Simulated reference' } };
  }
}
