import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from './support/action-server.js';
import { runStep } from './support/runner.js';

/** The job summary lists the runs the followed run started, and theirs, with their outcomes: the bundled action as the runner runs it. */
let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  env = await startActionServer();
});
afterAll(async () => {
  await env.close();
});

describe('the runs a run started, in the job summary', () => {
  it('lists each child and grandchild with its state, title and id, escaped', async () => {
    const parent = await env.client.runs.create({ prompt: 'Plan [simulate 10ms]', title: 'Plan' });
    const child = await env.client.runs.create({ prompt: 'Part [simulate 10ms]', title: 'Part <img src=x>', parent_run_id: parent.run_id });
    const failing = await env.client.runs.create({ prompt: 'Break [simulate 10ms fail]', title: 'Breaks', parent_run_id: parent.run_id });
    const grandchild = await env.client.runs.create({ prompt: 'Detail [simulate 10ms]', title: 'Detail', parent_run_id: child.run_id });
    for (const id of [child.run_id, failing.run_id, grandchild.run_id]) await env.client.runs.wait(id, { timeout: 10_000 });
    const step = await runStep({ inputs: serverInputs(env.server, { 'run-id': parent.run_id, message: 'Sum it up' }) });
    expect(step.code, step.error).toBe(0);
    expect(step.summary).toContain('<h4>Runs it started</h4>');
    expect(step.summary).toContain(`<li><b>SUCCEEDED</b> Part &lt;img src=x&gt; (<code>${child.run_id}</code>)<ul><li><b>SUCCEEDED</b> Detail (<code>${grandchild.run_id}</code>)</li></ul></li>`);
    expect(step.summary).toMatch(new RegExp(`<li><b>FAILED</b> Breaks \\(<code>${failing.run_id}</code>\\)</li>`));
  }, 30_000);

  it('says nothing of children for a run that started none', async () => {
    const step = await runStep({ inputs: serverInputs(env.server, { prompt: 'Alone [simulate 10ms]' }) });
    expect(step.code, step.error).toBe(0);
    expect(step.summary).not.toContain('Runs it started');
  }, 30_000);
});
