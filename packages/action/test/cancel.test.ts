import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from './support/action-server.js';
import { runStep, waitForOutput } from './support/runner.js';

/** The runner's window between SIGINT and SIGTERM. */
const RUNNER_WINDOW_MS = 7_500;

let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  env = await startActionServer();
});
afterAll(() => env.close());

const inputs = (more: Record<string, string> = {}) => serverInputs(env.server, more);

/** Runs the main step on a hanging run and sends `signal` once the run is in progress. */
async function cancelJobWith(signal: NodeJS.Signals, more: Record<string, string> = {}) {
  let signalledAt = 0;
  const step = await runStep({
    inputs: inputs({ prompt: 'Hang [simulate hang]', ...more }),
    onStart: (child: ChildProcess, output) => {
      void waitForOutput(output, /\] INPROGRESS/).then(() => {
        signalledAt = Date.now();
        child.kill(signal);
      });
    },
  });
  // Without the signal the step's time says nothing about cancellation: show what it printed instead.
  if (signalledAt === 0) throw new Error(`The step ended before it showed the run INPROGRESS, so it was never signalled. Its output:\n${step.stdout}\n${step.stderr}`);
  return { step, exitMs: step.endedAt - signalledAt };
}

describe.concurrent('job cancellation', () => {
  it('cancels the run on SIGINT and exits inside the runner window', async () => {
    const { step, exitMs } = await cancelJobWith('SIGINT');
    const id = step.outputs['run-id']!;
    expect(exitMs).toBeLessThan(RUNNER_WINDOW_MS);
    expect(step.code).toBe(1);
    expect(step.stdout).toContain('The job is being cancelled (SIGINT).');
    expect(step.error).toMatch(new RegExp(`^The job was cancelled after \\S+, so run ${id} was cancelled \\(now CANCELLED\\)\\. http`));
    expect(step.outputs.state).toBe('CANCELLED');
    expect((await env.client.runs.get(id)).state).toBe('CANCELLED');
  });

  it('cancels the run on SIGTERM too', async () => {
    const { step, exitMs } = await cancelJobWith('SIGTERM');
    expect(exitMs).toBeLessThan(RUNNER_WINDOW_MS);
    expect((await env.client.runs.get(step.outputs['run-id']!)).state).toBe('CANCELLED');
  });

  it('leaves the run going with cancel-on-job-cancel false, and so does the post step', async () => {
    const { step, exitMs } = await cancelJobWith('SIGINT', { 'cancel-on-job-cancel': 'false' });
    const id = step.outputs['run-id']!;
    expect(exitMs).toBeLessThan(RUNNER_WINDOW_MS);
    expect(step.error).toMatch(/run \S+ was left running \(cancel-on-job-cancel: false\)/);
    const post = await runStep({ inputs: inputs(), state: step.state });
    expect(post.stdout).toContain('left running on purpose');
    expect((await env.client.runs.get(id)).state).toBe('INPROGRESS');
    await env.client.runs.cancel(id);
  });
});

describe.concurrent('the post step', () => {
  it('cancels a run the main step could not (the main step was killed)', async () => {
    const main = await runStep({
      inputs: inputs({ prompt: 'Hang [simulate hang]' }),
      onStart: (child, output) => void waitForOutput(output, /\] INPROGRESS/).then(() => child.kill('SIGKILL')),
    });
    expect(main.signal).toBe('SIGKILL');
    const id = main.state['run-id']!;
    expect(main.state['cancel-in-post']).toBe('true');
    expect((await env.client.runs.get(id)).state).toBe('INPROGRESS');

    const post = await runStep({ inputs: inputs(), state: main.state });
    expect(post.code).toBe(0);
    expect(post.stdout).toMatch(new RegExp(`Run ${id} was still INPROGRESS when the job ended, so it was cancelled \\(now CANCELLED`));
    expect((await env.client.runs.get(id)).state).toBe('CANCELLED');
  });

  it('does nothing for a run that already ended', async () => {
    const main = await runStep({ inputs: inputs({ prompt: 'Quick [simulate 100ms]' }) });
    const id = main.outputs['run-id']!;
    const before = await env.client.runs.get(id);
    const post = await runStep({ inputs: inputs(), state: main.state });
    expect(post.code).toBe(0);
    expect(post.stdout).toContain(`Run ${id} already ended (SUCCEEDED); nothing to do.`);
    expect(await env.client.runs.get(id)).toEqual(before);
  });

  it('does nothing when the main step started no run', async () => {
    const main = await runStep({ inputs: inputs({ timeout: 'never' }) });
    expect(main.code).toBe(1);
    const post = await runStep({ inputs: inputs(), state: main.state });
    expect(post.code).toBe(0);
    expect(post.stdout).toContain('No run was started; nothing to clean up.');
  });

  it('warns, without failing the job, when it cannot reach the server', async () => {
    const post = await runStep({
      inputs: inputs({ 'base-url': 'http://127.0.0.1:9/api/v1' }),
      state: { isPost: 'true', 'run-id': 'gone', 'cancel-in-post': 'true' },
    });
    expect(post.code).toBe(0);
    expect(post.stdout).toMatch(/::warning::Could not check or cancel run gone: Could not reach http:\/\/127\.0\.0\.1:9\/api\/v1/);
  });
});
