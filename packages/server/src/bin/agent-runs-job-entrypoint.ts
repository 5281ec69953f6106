#!/usr/bin/env node
import { JOB_ENV } from '../worker-process/kubernetes/job-protocol.js';
import { runJobEntrypoint } from '../worker-process/kubernetes/job-entrypoint.js';

const HELP = `agent-runs-job-entrypoint: the command of a Job's pod made by agent-runs-worker --backend kubernetes

It runs the agent command (${JOB_ENV.command}, with /bin/sh -c), sends its output, usage
(what the agent writes to ${JOB_ENV.usageFile}, as JSON) and end to the worker at
${JOB_ENV.url} under the run's token (${JOB_ENV.token}), and exits with the agent's code.
The worker sets every variable in the Job's spec; nothing is given as a flag.
`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}

runJobEntrypoint(process.env, (line) => process.stderr.write(`${line}\n`)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`agent-runs-job-entrypoint: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
