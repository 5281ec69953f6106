import * as core from '@actions/core';
import type { RunItem } from '@agent-runs/core';

/** Query parameters of a session link that open the page by themselves: bearer credentials. */
const CREDENTIAL_PARAMS = ['token'];

/**
 * The session link as the step publishes it (log, outputs, job summary, pull-request
 * comment), read by people who are not the run's owner: without its token, which is masked
 * first so that the runner hides it wherever else it appears. The owner opens the page
 * with their key, or takes the whole link from the API.
 */
export function publicSessionLink(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link;
  }
  for (const name of CREDENTIAL_PARAMS) {
    for (const value of url.searchParams.getAll(name)) if (value) core.setSecret(value);
    url.searchParams.delete(name);
  }
  return url.toString();
}

/** The run with its session link made public (see publicSessionLink), for what the step publishes. */
export function publicRun(run: RunItem): RunItem {
  return run.session_link ? { ...run, session_link: publicSessionLink(run.session_link) } : run;
}
