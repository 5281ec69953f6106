import { mkdirSync, statSync } from 'node:fs';
import {
  artifactFileName,
  isDownloadableArtifact,
  NotFoundError,
  runArtifacts,
  summarizeArtifact,
  visibleText,
  type AgentRunsClient,
  type ArtifactResponse,
} from '@agent-runs/core';
import type { Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { freePath } from '../input/free-path.js';
import type { Io } from '../io.js';
import { formatBytes } from '../render/artifact-table.js';
import { downloadProgress } from '../render/download-progress.js';
import { writeJson } from '../render/json-output.js';
import { UsageError } from '../usage-error.js';

interface Saved {
  artifact_uid: string;
  path: string;
  bytes: number;
}

async function save(client: AgentRunsClient, io: Io, artifact: ArtifactResponse, dir: string): Promise<Saved> {
  if (!isDownloadableArtifact(artifact)) throw new Error('not downloadable'); // Filtered by the callers.
  // The name "artifacts" lists it by, so that what is listed is what is saved.
  const name = artifactFileName(artifact);
  const path = freePath(dir, name);
  const progress = downloadProgress(io, visibleText(name));
  try {
    const result = await client.artifacts.download(artifact.artifact_uid, { to: path, onProgress: progress.onProgress });
    return { artifact_uid: artifact.artifact_uid, path, bytes: result.bytes };
  } finally {
    progress.done();
  }
}

/** Checks --out before anything is fetched: a file there is a mistake in the flag, not the API's. */
function checkOutFolder(dir: string, command: string): void {
  const found = statSync(dir, { throwIfNoEntry: false });
  if (found && !found.isDirectory()) {
    throw new UsageError(`--out ${visibleText(dir)} is a file; --out takes the folder to save into (made if missing).`, command);
  }
}

/** Makes the --out folder, naming the local problem (a file on the path, no permission) in the flag's terms. */
function makeOutFolder(dir: string, command: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' || code === 'EEXIST' ? 'a file is in the way' : (error as Error).message;
    throw new UsageError(`--out ${visibleText(dir)}: cannot make the folder (${reason}).`, command);
  }
}

export const downloadCommand: Command = {
  name: 'download',
  summary: 'Save a run’s files and screenshots',
  usage: '<artifact-uid|run-id> [flags]',
  description:
    'Save one FILE or SCREENSHOT artifact, or every one of a run, into --out (default the current\n' +
    'directory). An existing file is never overwritten: the new one gets a " (2)" suffix. A progress\n' +
    'bar shows on a terminal for files over 1 MiB.',
  positionals: true,
  usesApi: true,
  flags: {
    out: { type: 'string', value: '<dir>', description: 'Directory to save into (made if missing; default .)' },
    json: { type: 'boolean', description: 'Print what was saved as JSON' },
  },
  examples: ['$0 download 6f1c2a9e-… --out artifacts/', '$0 download 01a2…-artifact-uid'],
  async run(flags, ctx) {
    const [id, ...extra] = flags.positionals;
    if (id === undefined || id.trim() === '') {
      throw new UsageError('Missing <artifact-uid|run-id>: "download" needs an artifact uid (see "artifacts") or a run id.', flags.command);
    }
    if (extra.length > 0) throw new UsageError(`"download" takes one id, got ${flags.positionals.length} arguments.`, flags.command);
    const dir = flags.nonEmpty('out') ?? '.';
    checkOutFolder(dir, flags.command);
    const client = ctx.client();
    let targets: ArtifactResponse[];
    try {
      const artifact = await client.artifacts.get(id.trim());
      if (!isDownloadableArtifact(artifact)) {
        throw new UsageError(`Artifact ${id.trim()} is a ${visibleText(artifact.artifact_type)}; only FILE and SCREENSHOT artifacts can be downloaded.`, flags.command);
      }
      targets = [artifact];
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      // Not an artifact: a run id, then (its NotFoundError is the one reported).
      const run = await client.runs.get(id.trim());
      const uids = runArtifacts(run)
        .filter((a) => a.artifact_type === 'FILE' || a.artifact_type === 'SCREENSHOT')
        .map((a) => summarizeArtifact(a).uid)
        .filter((uid): uid is string => uid !== undefined);
      targets = [];
      for (const uid of uids) targets.push(await client.artifacts.get(uid));
      if (targets.length === 0) {
        ctx.io.stderr.write(`Run ${run.run_id} has no files or screenshots to download (see "artifacts").\n`);
        if (flags.bool('json')) writeJson(ctx.io.stdout, []);
        return EXIT.OK;
      }
    }
    makeOutFolder(dir, flags.command);
    const saved: Saved[] = [];
    for (const artifact of targets) {
      const one = await save(client, ctx.io, artifact, dir);
      saved.push(one);
      if (!flags.bool('json')) ctx.io.stdout.write(`Saved ${visibleText(one.path)} (${formatBytes(one.bytes)})\n`);
    }
    if (flags.bool('json')) writeJson(ctx.io.stdout, saved);
    return EXIT.OK;
  },
};
