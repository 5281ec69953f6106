import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverInputs, startActionServer } from './support/action-server.js';
import { runStep } from './support/runner.js';

let env: Awaited<ReturnType<typeof startActionServer>>;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-action-sources-'));
  mkdirSync(join(dir, 'kit', 'review'), { recursive: true });
  writeFileSync(join(dir, 'kit', 'review', 'SKILL.md'), '---\nname: review\n---\nRead the diff.\n');
  writeFileSync(join(dir, 'server.json'), JSON.stringify({ skill_directories: ['./kit'], environments: { 'web-env': { name: 'Web app' } } }));
  env = await startActionServer({ configFile: join(dir, 'server.json') });
  await env.client.agents.create({ name: 'reviewer', prompt: 'Be thorough.', base_model: 'model-r' });
});
afterAll(() => env.close());

describe('the environment, skill and agent inputs', () => {
  it('start the run in the environment, from the skill, with the named agent’s defaults, each given by name', async () => {
    const step = await runStep({
      inputs: serverInputs(env.server, { prompt: 'Review it [simulate 100ms]', environment: 'Web app', skill: 'review', agent: 'reviewer' }),
    });
    expect(step.code).toBe(0);
    const run = JSON.parse(step.outputs.run!);
    expect(run.agent_config).toMatchObject({
      environment_id: 'web-env',
      skill_spec: 'review',
      model_id: 'model-r',
      base_prompt: 'Be thorough.\n\nRead the diff.',
      name: 'review',
    });
  });

  it('fail the step naming the input when nothing has that name', async () => {
    const noEnv = await runStep({ inputs: serverInputs(env.server, { prompt: 'x', environment: 'mars' }) });
    expect(noEnv.code).toBe(1);
    expect(noEnv.error).toContain('Input "environment": no environment has the name or id "mars"; known: Web app (web-env)');
    const noAgent = await runStep({ inputs: serverInputs(env.server, { prompt: 'x', agent: 'nobody' }) });
    expect(noAgent.error).toContain('Input "agent": no named agent has the name or id "nobody"');
    const noSkill = await runStep({ inputs: serverInputs(env.server, { prompt: 'x', skill: 'ghost' }) });
    expect(noSkill.error).toMatch(/skill: "ghost" matches no skill of this server/);
    expect((await env.client.runs.list()).runs).toHaveLength(1);
  });
});
