import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentSkillSchema } from '@agent-runs/core';
import { gitRepo } from './support/git-repo.js';
import { tempTree, writeServerConfig } from './support/server-config.js';
import { nodeAgentCommand } from './support/node-agent.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const REVIEW = '---\nname: review\ndescription: Review a change\n---\n# Review\n\nRead the diff line by line.\nSay what would break.\n';
const skillsRoot = tempTree({
  'team-skills/review/SKILL.md': REVIEW,
  'team-skills/broken/SKILL.md': '---\nname: [unclosed\n---\nBody\n',
});
const repo = gitRepo({ 'skills/lint/SKILL.md': '---\nname: lint\ndescription: Lint the code\n---\nRun the linter and fix what it finds.\n' });
const workRoot = tempTree({}, 'agent-runs-skill-work-');
const agent = `require('node:fs').writeFileSync('base-prompt.txt', process.env.AGENT_RUNS_BASE_PROMPT ?? '')`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    executor: 'command',
    command: nodeAgentCommand(agent),
    workDir: workRoot,
    configFile: writeServerConfig({
      skill_directories: [join(skillsRoot, 'team-skills')],
      environments: { web: { name: 'Web app', repos: [{ url: repo }] } },
    }),
  });
});
afterAll(async () => {
  await t.close();
  rmSync(workRoot, { recursive: true, force: true });
});

const owner = basename(join(repo, '..'));
const post = (body: unknown) =>
  t.raw('/api/v1/agent/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('skills', () => {
  it('lists the SKILL.md files of the skill directories and of the environments’ repositories', async () => {
    const res = await t.raw('/api/v1/agent');
    expect(res.status).toBe(200);
    const agents = res.body.agents.map((a: unknown) => AgentSkillSchema.parse(a));
    expect(agents.map((a: { name: string }) => a.name)).toEqual(['lint', 'review']);
    expect(agents[1].variants).toEqual([
      {
        id: 'local/team-skills:review/SKILL.md',
        description: 'Review a change',
        base_prompt: '# Review\n\nRead the diff line by line.\nSay what would break.',
        source: { owner: 'local', name: 'team-skills', skill_path: 'review/SKILL.md' },
        environments: [],
        last_run_timestamp: null,
      },
    ]);
    expect(agents[0].variants[0]).toMatchObject({
      id: `${owner}/${basename(repo)}:skills/lint/SKILL.md`,
      source: { owner, name: basename(repo), skill_path: 'skills/lint/SKILL.md' },
      environments: [{ uid: 'web', name: 'Web app' }],
    });
  });

  it('shows a malformed SKILL.md only when asked, with what is wrong', async () => {
    const res = await t.raw('/api/v1/agent?include_malformed_skills=true&repo=team-skills');
    const broken = res.body.agents.find((a: { variants: { source: { skill_path: string } }[] }) => a.variants[0]!.source.skill_path === 'broken/SKILL.md');
    expect(broken.variants[0].error).toMatch(/front matter is not valid YAML/);
    expect((await t.raw(`/api/v1/agent?repo=${owner}/${basename(repo)}`)).body.agents.map((a: { name: string }) => a.name)).toEqual(['lint']);
  });

  it('gives the agent the SKILL.md text as its base prompt and names the run after the skill', async () => {
    const { run_id } = await t.client.runs.create({ prompt: 'Review PR 12', skill: 'team-skills:review' });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    expect(readFileSync(join(workRoot, run_id, 'base-prompt.txt'), 'utf8')).toBe('# Review\n\nRead the diff line by line.\nSay what would break.');
    expect(run.agent_config).toMatchObject({ skill_spec: 'team-skills:review', name: 'review' });
    expect(run.agent_skill).toEqual({ name: 'review', description: 'Review a change', full_path: 'local/team-skills:review/SKILL.md' });
    const listed = (await t.raw('/api/v1/agent?sort_by=last_run')).body.agents;
    expect(listed[0].name).toBe('review');
    expect(listed[0].variants[0].last_run_timestamp).toBe(run.created_at);
  });

  it('resolves config.skill_spec given as owner/repo:path/to/SKILL.md, a config name given winning', async () => {
    const { run_id } = await t.client.runs.create({
      prompt: 'Lint it',
      config: { skill_spec: `${owner}/${basename(repo)}:skills/lint/SKILL.md`, name: 'nightly-lint' },
    });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(readFileSync(join(workRoot, run_id, 'base-prompt.txt'), 'utf8')).toBe('Run the linter and fix what it finds.');
    expect(run.agent_config?.name).toBe('nightly-lint');
  });

  it('runs with config.skills alone, as SDK 1.4 allows: the skills’ text is the agent’s base prompt', async () => {
    const { run_id } = await t.client.runs.create({ config: { skills: ['team-skills:review'] } });
    const run = await t.client.runs.wait(run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    expect(readFileSync(join(workRoot, run_id, 'base-prompt.txt'), 'utf8')).toBe('# Review\n\nRead the diff line by line.\nSay what would break.');
    // Skills the server does not have would leave the agent nothing to do.
    const none = await post({ config: { skills: ['acme/tools:deploy'] } });
    expect(none.status).toBe(400);
    expect(none.body.issues[0].path).toBe('prompt');
  });

  it('refuses a skill that matches none, naming the spec and the field', async () => {
    const res = await post({ prompt: 'x', skill: 'acme/tools:deploy' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^skill: "acme\/tools:deploy" matches no skill of this server; known: /);
    const viaConfig = await post({ prompt: 'x', config: { skill_spec: 'nope' } });
    expect(viaConfig.body.detail).toMatch(/^config\.skill_spec: "nope" matches no skill/);
    const malformed = await post({ prompt: 'x', skill: 'team-skills:broken/SKILL.md' });
    expect(malformed.body.detail).toMatch(/^skill: "team-skills:broken\/SKILL.md" names a SKILL.md that cannot be used: the front matter/);
    expect((await t.raw('/api/v1/agent?sort_by=size')).body.detail).toMatch(/^sort_by: must be one of name, last_run/);
  });
});

describe('a schedule with agent_config.skills alone', () => {
  const clock = { at: new Date('2026-03-02T10:00:30Z'), now() { return new Date(this.at); } };
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      clock,
      schedulerIntervalMs: 20,
      executor: 'command',
      command: nodeAgentCommand(agent),
      workDir: workRoot,
      configFile: writeServerConfig({ skill_directories: [join(skillsRoot, 'team-skills')] }),
    });
  });
  afterAll(async () => s?.close());

  it('is taken, and each run it starts has the skills’ text as its base prompt', async () => {
    const created = await s.client.schedules.create({ name: 'review', cron_schedule: '* * * * *', agent_config: { skills: ['team-skills:review'] } });
    clock.at = new Date('2026-03-02T10:01:05Z');
    const deadline = Date.now() + 10_000;
    let runs = (await s.client.runs.list({ schedule_id: created.id })).runs;
    while (runs.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      runs = (await s.client.runs.list({ schedule_id: created.id })).runs;
    }
    const run = await s.client.runs.wait(runs[0]!.run_id, { pollInterval: 20 });
    expect(run.state).toBe('SUCCEEDED');
    expect(readFileSync(join(workRoot, run.run_id, 'base-prompt.txt'), 'utf8')).toMatch(/^# Review/);
  });
});
