import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { attachmentsDir } from '../executors/agent-protocol.js';

const MAX_LISTED = 100;

/** The regular files of a run's attachments directory, as the last execution left it. */
export function handoffFiles(workRoot: string, runId: string): string[] {
  const dir = attachmentsDir(workRoot, runId);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  // Links are not followed: only what the agent wrote there is handed off.
  return names.filter((name) => lstatSync(join(dir, name), { throwIfNoEntry: false })?.isFile()).slice(0, MAX_LISTED);
}
