import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HandoffAttachmentsResponse } from '@agent-runs/core/contract';
import { attachmentsDir } from '../executors/agent-protocol.js';
import { mimeTypeOf } from '../executors/mime-type.js';
import { sendJson } from '../http/respond.js';
import type { Route } from '../http/route.js';

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

/** `GET /agent/runs/{runId}/handoff/attachments`: signed links to the files of the run's attachments directory. */
export const handoffAttachmentsRoute: Route = {
  method: 'GET',
  path: '/api/v1/agent/runs/:runId/handoff/attachments',
  auth: true,
  async handle({ res, params, app, caller }) {
    const run = await app.runs.getOrThrow(params.runId!, caller);
    const body: HandoffAttachmentsResponse = {
      attachments: handoffFiles(app.workRoot, run.id).map((name) => {
        const link = app.links.sign(`/downloads/handoff/${encodeURIComponent(run.id)}/${encodeURIComponent(name)}`);
        return { attachment_id: `${run.id}/${name}`, download_url: `${app.publicUrl()}${link.path}`, filename: name, mime_type: mimeTypeOf(name) };
      }),
    };
    sendJson(res, 200, body);
  },
};
