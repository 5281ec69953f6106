import * as core from '@actions/core';
import { formatElapsed, type RunChange } from '@agent-runs/core';
import { publicSessionLink } from './session-link.js';
import { logRunText } from './workflow-text.js';

/** Logs the session link once, then each new state or status message with the time since the wait began. */
export function logProgress({ run, statusChanged, newSessionLink, elapsedMs }: RunChange): void {
  if (newSessionLink) logRunText(`Session: ${publicSessionLink(newSessionLink)}`);
  const message = run.status_message?.message;
  if (statusChanged) {
    logRunText(`[${formatElapsed(elapsedMs)}] ${run.state}${message ? ` - ${message}` : ''}`);
  } else {
    core.debug(`[${formatElapsed(elapsedMs)}] ${run.state}, updated ${run.updated_at}`);
  }
}
