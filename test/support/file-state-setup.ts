import { afterAll } from 'vitest';
import { removeFileTempDirs } from './file-temp-dirs.js';

/**
 * Set-up run before each test file. Test files share their worker process (`isolate: false` in
 * vitest.config.ts: a file's imports are loaded once per worker, not once per file, which was a
 * third of the suite's time), so what one file leaves in the process must not reach the next:
 * the environment (a file that sets a variable for the servers it starts in-process, such as
 * AGENT_RUNS_SERVER_API_KEYS, would otherwise hand it to every later file's servers and agents)
 * and the working directory are put back as they were when the file began. The temporary
 * directories it made through `tempTree` are removed.
 */
const env = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  removeFileTempDirs();
  for (const name of Object.keys(process.env)) {
    if (!(name in env)) delete process.env[name];
  }
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
});
