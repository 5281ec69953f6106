#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { JOB_ENV } from '../worker-process/kubernetes/job-limits.js';
import { runJobEntrypoint } from '../worker-process/kubernetes/job-entrypoint.js';

const HELP = `agent-runs-job-entrypoint: runs a run's agent and reports to the agent-runs-worker that sent it

In a Job's pod made by agent-runs-worker --backend kubernetes: it runs the agent command
(${JOB_ENV.command}, with /bin/sh -c), sends its output, usage (what the agent writes to
${JOB_ENV.usageFile}, as JSON) and end to the worker at ${JOB_ENV.url} under the run's
token (${JOB_ENV.token}), and exits with the agent's code. A run with ${JOB_ENV.workspace}
first gets its environment's repositories cloned and setup commands run in a directory of
its own (under ${JOB_ENV.workRoot}: the pod's emptyDir), where the agent then runs. The
worker sets every variable in the Job's spec.

Options:
  --stdin         Read the run from stdin instead, as agent-runs-worker --backend command
                  writes it to its dispatch command (JSON: where to report, the run's token,
                  the agent command, its variables and secrets). Pipe the dispatch command's
                  stdin here, on the machine that runs the agent.
  --detach        With --stdin: read the run, start the entrypoint in a session of its own
                  (setsid) that outlives this command, and exit 0 at once (for ssh).
  --log <file>    With --detach: where the detached entrypoint writes (default: nowhere).
  --help          Show this help.
`;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}
const fail = (message: string, code = 2): never => {
  process.stderr.write(`agent-runs-job-entrypoint: ${message}\n`);
  process.exit(code);
};
const known = new Set(['--stdin', '--detach', '--log']);
for (let i = 0; i < argv.length; i++) {
  if (!known.has(argv[i]!)) fail(`unknown option "${argv[i]!.slice(0, 100)}" (valid: --stdin, --detach, --log <file>, --help).`);
  if (argv[i] === '--log') i++;
}
const fromStdin = argv.includes('--stdin');
const detach = argv.includes('--detach');
const logAt = argv.indexOf('--log');
const logFile = logAt >= 0 ? argv[logAt + 1] : undefined;
if (detach && !fromStdin) fail('--detach goes with --stdin.');
if (logAt >= 0 && (!detach || !logFile)) fail('--log <file> goes with --detach, and names a file.');

async function main(): Promise<number> {
  if (!fromStdin) return runJobEntrypoint(process.env, (line) => process.stderr.write(`${line}\n`));
  const input = await text(process.stdin);
  // Checked here, so a bad run fails the dispatch command rather than a detached process no one watches.
  const { entrypointEnvFrom } = await import('../worker-process/dispatch/entrypoint-input.js');
  const env = entrypointEnvFrom(input, process.env);
  if (!detach) return runJobEntrypoint(env, (line) => process.stderr.write(`${line}\n`));
  const out = logFile ? openSync(logFile, 'a', 0o600) : 'ignore';
  // The run goes to the detached entrypoint through a pipe, as it came: never in its argv or environment.
  const child = spawn(process.execPath, [process.argv[1]!, '--stdin'], { detached: true, stdio: ['pipe', out, out] });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', resolve);
  });
  await new Promise<void>((resolve, reject) => child.stdin!.end(input, (error?: Error | null) => (error ? reject(error) : resolve())));
  child.unref();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => fail((error as Error).message, 1),
);
