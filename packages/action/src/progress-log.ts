import * as core from '@actions/core';
import { formatElapsed, type RunUpdate } from '@agent-runs/core';
import { logRunText } from './workflow-text.js';

/** Logs the session link once, then each change of state with the time since the wait began. */
export function logProgress({ run, previous, stateChanged, elapsedMs }: RunUpdate): void {
  if (!previous && run.session_link) logRunText(`Session: ${run.session_link}`);
  const message = run.status_message?.message;
  if (stateChanged || !previous) {
    logRunText(`[${formatElapsed(elapsedMs)}] ${run.state}${message ? ` - ${message}` : ''}`);
  } else if (message && message !== previous.status_message?.message) {
    logRunText(`[${formatElapsed(elapsedMs)}] ${run.state} - ${message}`);
  } else {
    core.debug(`[${formatElapsed(elapsedMs)}] ${run.state}, updated ${run.updated_at}`);
  }
}
