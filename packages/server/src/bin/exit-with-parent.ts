/** How often the parent is looked for: a stop within a second is soon enough for a terminal. */
const CHECK_MS = 1_000;

/**
 * Calls `onGone` once the process that started this one has exited: this one is then
 * adopted by another, so its parent id changes. `npx` does not pass SIGTERM on to the
 * command it runs; without this, stopping npx would leave the server running.
 */
export function whenParentExits(onGone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, CHECK_MS);
  timer.unref();
}

/** Started by npm (`npx`, `npm exec`, `npm start`): npm sets `npm_command` for the commands it runs. */
export const startedByNpm = (env: NodeJS.ProcessEnv): boolean => typeof env.npm_command === 'string' && env.npm_command !== '';
