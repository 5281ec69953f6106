import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverInputs, startActionServer } from './support/action-server.js';
import { BUNDLE, runStep } from './support/runner.js';

let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  env = await startActionServer();
});
afterAll(() => env.close());

/** Node running a module that imports the bundle, as `@github/local-action` does, then `then`. */
const importer = (then: string) => ['--input-type=module', '-e', `const step = await import(${JSON.stringify(pathToFileURL(BUNDLE).href)}); ${then}`];

it('starts no run when the bundle is imported rather than run', async () => {
  const step = await runStep({
    inputs: serverInputs(env.server, { prompt: 'Imported [simulate 100ms]' }),
    nodeArgs: importer("console.log('exports:', typeof step.run, typeof step.runPost);"),
  });
  expect(step.code).toBe(0);
  expect(step.stdout).toContain('exports: function function');
  expect(step.outputs).toEqual({});
  expect((await env.client.runs.list()).runs).toHaveLength(0);
});

it('runs the main step once when an importer calls run(), as the local action runner does', async () => {
  const step = await runStep({
    inputs: serverInputs(env.server, { prompt: 'Called [simulate 100ms]' }),
    nodeArgs: importer('await step.run();'),
  });
  expect(step.code).toBe(0);
  expect(step.outputs.state).toBe('SUCCEEDED');
  const { runs } = await env.client.runs.list();
  expect(runs.map((run) => run.run_id)).toEqual([step.outputs['run-id']]);
});
