import { inAgentDir, type AgentDir } from './agent-tree.js';
import type { NewArtifact } from '../store/artifacts/artifact-store.js';
import type { ArtifactLimits } from './execution-input.js';
import { isImage, mimeTypeOf } from './mime-type.js';

const MAX_DEPTH = 8;
const MAX_ENTRIES = 2000;

/** A file the agent left, at `filepath` beneath its artifacts directory, as an artifact: a SCREENSHOT if an image, else a FILE. */
export function fileArtifact(filepath: string, content: Buffer): NewArtifact {
  const name = filepath.slice(filepath.lastIndexOf('/') + 1);
  const mimeType = mimeTypeOf(name);
  return isImage(mimeType)
    ? { type: 'SCREENSHOT', data: { mime_type: mimeType, description: filepath, filename: name, filepath }, content }
    : { type: 'FILE', data: { filename: name, filepath, mime_type: mimeType, size_bytes: content.length }, content };
}

export interface CollectedFiles {
  artifacts: NewArtifact[];
  notes: string[];
  bytes: number;
}

/**
 * Turns the files an agent left in its artifacts directory (`dir`, beneath the server's
 * `root`) into FILE artifacts (images into SCREENSHOT), within the per-file and per-run byte
 * limits. No symbolic link is followed, the artifacts directory and those above it
 * included: an agent could otherwise hand back any file the server can read.
 */
export function collectArtifactFiles(root: string, dir: string, limits: ArtifactLimits, usedBytes: number, room: number): CollectedFiles {
  const found: CollectedFiles = { artifacts: [], notes: [], bytes: 0 };
  let seen = 0;
  const walk = (current: AgentDir, prefix: string, depth: number) => {
    let names: string[];
    try {
      names = current.list();
    } catch {
      return; // The directory went away while it was read: nothing more to collect.
    }
    for (const name of names) {
      if (++seen > MAX_ENTRIES) {
        if (seen === MAX_ENTRIES + 1) found.notes.push(`the artifacts directory holds more than ${MAX_ENTRIES} entries; the rest were skipped.`);
        return;
      }
      const filepath = `${prefix}${name}`;
      const stat = current.stat(name);
      if (!stat) continue;
      if (stat.isDirectory()) {
        if (depth < MAX_DEPTH) {
          let sub: AgentDir;
          try {
            sub = current.dir(name);
          } catch {
            found.notes.push(`artifact directory ${filepath} changed while it was read (it is no longer a directory); skipped.`);
            continue;
          }
          try {
            walk(sub, `${filepath}/`, depth + 1);
          } finally {
            sub.close();
          }
        } else found.notes.push(`artifact directory ${filepath} is nested deeper than ${MAX_DEPTH} levels; skipped.`);
        continue;
      }
      if (!stat.isFile()) {
        found.notes.push(`artifact ${filepath} is not a regular file (links are not followed); skipped.`);
        continue;
      }
      if (stat.size > limits.maxFileBytes) {
        found.notes.push(`artifact ${filepath} is ${stat.size} bytes, over the limit of ${limits.maxFileBytes} bytes per file; skipped.`);
        continue;
      }
      if (usedBytes + found.bytes + stat.size > limits.maxRunBytes) {
        found.notes.push(
          `artifact ${filepath} (${stat.size} bytes) would take the run past its limit of ${limits.maxRunBytes} bytes of files; skipped.`,
        );
        continue;
      }
      if (found.artifacts.length >= room) {
        found.notes.push(`artifact ${filepath} is past the limit of ${limits.maxArtifactsPerExecution} artifacts per execution; skipped.`);
        continue;
      }
      // Opened without following a link or blocking: the agent may have swapped the file since it was listed.
      const content = current.bytes(name, limits.maxFileBytes);
      if (!content) {
        found.notes.push(`artifact ${filepath} changed while it was read (it is no longer a regular file within the limit); skipped.`);
        continue;
      }
      found.bytes += content.length;
      found.artifacts.push(fileArtifact(filepath, content));
    }
  };
  inAgentDir(
    root,
    dir,
    (artifacts) => walk(artifacts, '', 0),
    (code) => {
      // No artifacts directory left is nothing to collect; a link or a file in its place (or above it) is told.
      if (code !== 'ENOENT') found.notes.push('the artifacts directory (or a directory above it) was replaced by a symbolic link or a file; nothing in it was read.');
    },
  );
  return found;
}
