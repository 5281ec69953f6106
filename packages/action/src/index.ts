import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { run } from './main.js';
import { runPost } from './post.js';
import { isPostStep } from './step-state.js';

// For runners that import the entry and call the step themselves (`@github/local-action`
// calls `run()`): importing the file starts nothing.
export { run, runPost };

/** Whether node was started with this file (as GitHub's runner starts `node dist/index.js`), rather than importing it. */
function startedAsProgram(): boolean {
  const program = process.argv[1];
  if (!program) return false;
  try {
    return realpathSync(program) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// One bundle is both steps of action.yml; the saved state tells the post step apart.
if (startedAsProgram()) void (isPostStep() ? runPost() : run());
