import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: forks keep child processes and servers apart from vitest's own process.
    pool: 'forks',
    // A worker runs file after file in one process, its imports loaded once: loading them again
    // for each file was a third of the suite's time. What a file leaves in the process (its
    // environment, its working directory) is put back after it (test/support/file-state-setup.ts).
    isolate: false,
    setupFiles: ['test/support/file-state-setup.ts'],
    // Two files at a time: most tests wait on servers, agents and timers rather than the CPU, and
    // vitest's own default on two cores is one file at a time. Not three: over the server's suite
    // three were slower (936 s against 681) with 19 failed tests against 4 (time-outs of worker
    // processes, browsers and CLIs) on a shared machine whose two cores were already busy 97% of
    // the time with two.
    maxWorkers: 2,
    // Tests of a concurrent describe each start a process (the bundled Action, a CLI): two at a
    // time on two cores, or the last of five waits past its step's time limit.
    maxConcurrency: 2,
    // AGENT_RUNS_TEST_DATABASE_URL for the PostgreSQL tests: the given one, or a throwaway
    // cluster started for the run (skipped loudly without PostgreSQL).
    // The pinned harness CLIs (Claude Code, Codex, Gemini CLI), installed into their cache when missing.
    // bubblewrap, which the agents' sandbox needs, installed as root when missing.
    globalSetup: ['test/support/postgres-global-setup.ts', 'test/support/harness-global-setup.ts', 'test/support/sandbox-global-setup.ts'],
  },
});
