import { join } from 'node:path';

/** The working directory of one run: `<workRoot>/<run id>`. */
export function runWorkDir(workRoot: string, runId: string): string {
  return join(workRoot, runId);
}
