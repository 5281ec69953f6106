import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '@agent-runs/cli';
import { runCli } from './support/cli-process.js';
import { capturingIo } from './support/in-process-io.js';
import { startTestServer, TEST_KEY } from './support/local-server.js';

let local: Awaited<ReturnType<typeof startTestServer>>;
// Schedules here fire when the test moves this clock.
const clock = { at: new Date('2026-06-01T08:00:30Z'), now() { return new Date(this.at); } };
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-runs-cli-sources-'));
  mkdirSync(join(dir, 'kit', 'review'), { recursive: true });
  writeFileSync(join(dir, 'kit', 'review', 'SKILL.md'), '---\nname: review\ndescription: Review a change\n---\nRead the diff.\n');
  writeFileSync(join(dir, 'server.json'), JSON.stringify({ skill_directories: ['./kit'], environments: { 'web-env': { name: 'Web app' } } }));
  local = await startTestServer({ configFile: join(dir, 'server.json'), clock, schedulerIntervalMs: 20 });
});
afterAll(async () => {
  await local?.close();
});

async function cli(args: string[]) {
  const { io, out } = capturingIo({ AGENT_RUNS_API_KEY: TEST_KEY });
  const code = await main([...local.target, ...args], { io });
  return { code, ...out };
}

describe('agent-runs schedules', () => {
  it('creates a schedule, showing the next three firing times, then lists, gets, updates, pauses, resumes and deletes it', async () => {
    const created = await cli(['schedules', 'create', '--name', 'weekday triage', '--cron', '0 9 * * 1-5', '--prompt', 'Triage', '--environment', 'Web app']);
    expect(created.code).toBe(0);
    const id = /^Created schedule (\S+)\.$/m.exec(created.stdout)![1]!;
    const next = /^next runs:\s+(.+)$/m.exec(created.stdout)![1]!.split(', ');
    expect(next).toHaveLength(3);
    for (const at of next) {
      expect(at).toMatch(/T09:00:00\.000Z$/);
      expect([1, 2, 3, 4, 5]).toContain(new Date(at).getUTCDay());
    }
    expect(created.stdout).toMatch(/^environment:\s+web-env$/m);

    expect((await cli(['schedules', 'list'])).stdout).toMatch(new RegExp(`^${id}\\s+0 9 \\* \\* 1-5\\s+\\S+Z\\s+-\\s+weekday triage$`, 'm'));
    const updated = await cli(['schedules', 'update', id, '--cron', '30 8 * * *', '--json']);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id, name: 'weekday triage', cron_schedule: '30 8 * * *', prompt: 'Triage', agent_config: { environment_id: 'web-env' } });
    expect((await cli(['schedules', 'pause', id])).stdout).toMatch(/^state:\s+paused$/m);
    expect((await cli(['schedules', 'resume', id])).stdout).toMatch(/^state:\s+enabled$/m);
    expect((await cli(['schedules', 'get', id])).stdout).toMatch(/^cron:\s+30 8 \* \* \* \(UTC\)$/m);
    expect((await cli(['schedules', 'delete', id])).stdout).toBe(`Deleted schedule ${id}.\n`);
    expect((await local.client.schedules.list()).schedules).toHaveLength(0);
  });

  it('refuses a bad cron expression before sending anything, with exit 2', async () => {
    const result = await runCli([...local.target, 'schedules', 'create', '--name', 'n', '--cron', '61 * * * *', '--prompt', 'x'], { env: local.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--cron: "61 \* \* \* \*" is not a 5-field cron expression.*Invalid value for minute: 61/);
    expect((await local.client.schedules.list()).schedules).toHaveLength(0);
    expect((await cli(['schedules', 'frobnicate'])).stderr).toMatch(/"schedules" needs one of list, create, get, update, pause, resume, delete, got "frobnicate"/);
    expect((await cli(['schedules', 'get'])).stderr).toMatch(/Missing <schedule-id>/);
  });
});

describe('agent-runs list --schedule', () => {
  it('lists the runs a schedule started', async () => {
    const created = await cli(['schedules', 'create', '--name', 'minutely', '--cron', '* * * * *', '--prompt', 'Tick [simulate 0ms]', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    clock.at = new Date('2026-06-01T08:01:00.100Z');
    let runs: { source: string; schedule: { schedule_id: string } }[] = [];
    for (const deadline = Date.now() + 10_000; runs.length === 0 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 50));
      runs = JSON.parse((await cli(['list', '--schedule', id, '--json'])).stdout).runs;
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ source: 'SCHEDULED_AGENT', schedule: { schedule_id: id } });
    await cli(['schedules', 'delete', id]);
  });
});

describe('agent-runs environments, skills and agents', () => {
  it('lists environments and skills', async () => {
    const envs = await cli(['environments']);
    expect(envs.stdout).toMatch(/^ENVIRONMENT ID\s+NAME\s+REPOSITORIES\s+LAST RUN\nweb-env\s+Web app\s+-\s+-\n$/);
    const skills = await cli(['skills']);
    expect(skills.stdout).toMatch(/^review\s+local\/kit:review\/SKILL\.md\s+Review a change$/m);
    expect((await cli(['skills', '--sort-by', 'size'])).stderr).toMatch(/--sort-by must be name or last_run, got "size"/);
  });

  it('creates, lists, shows and deletes a named agent by name', async () => {
    const created = await cli(['agents', 'create', '--name', 'reviewer', '--prompt', 'Be thorough.', '--skill', 'review', '--environment', 'web-env']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^skills:\s+review$/m);
    expect((await cli(['agents', 'list'])).stdout).toMatch(/\s+reviewer\s+web-env\s+review$/m);
    expect((await cli(['agents', 'get', 'Reviewer'])).stdout).toMatch(/^prompt:\s+Be thorough\.$/m);
    const gone = await cli(['agents', 'delete', 'reviewer']);
    expect(gone.stdout).toMatch(/^Deleted named agent \S+\.\n$/);
    expect((await cli(['agents', 'get', 'reviewer'])).stderr).toMatch(/<name-or-id>: no named agent has the name or id "reviewer"/);
  });
});

describe('agent-runs run --environment --skill --agent', () => {
  it('starts a run with an environment, a skill and a named agent given by name', async () => {
    await local.client.agents.create({ name: 'helper', mcp_servers: { docs: { url: 'https://mcp.example.com/docs' } } });
    const result = await cli(['run', 'Review PR 5 [simulate 0ms]', '--environment', 'Web app', '--skill', 'review', '--agent', 'helper', '--json']);
    expect(result.code).toBe(0);
    const run = await local.client.runs.get(JSON.parse(result.stdout).run_id);
    expect(run.agent_config).toMatchObject({
      environment_id: 'web-env',
      skill_spec: 'review',
      base_prompt: 'Read the diff.',
      mcp_servers: { docs: { url: 'https://mcp.example.com/docs' } },
    });
  });

  it('names an unknown environment or skill with exit 2 or 4', async () => {
    const env = await cli(['run', 'x', '--environment', 'mars']);
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/--environment: no environment has the name or id "mars"; known: Web app \(web-env\)/);
    // The command that lists them, not the HTTP path.
    expect(env.stderr).toMatch(/\(list them with "\S*agent-runs\S* environments"\)/);
    expect(env.stderr).not.toContain('GET /agent');
    const agent = await cli(['run', 'x', '--agent', 'nobody']);
    expect(agent.stderr).toMatch(/--agent: no named agent has the name or id "nobody".*\(list them with "\S*agent-runs\S* agents"\)/);
    const skill = await cli(['run', 'x', '--skill', 'ghost']);
    expect(skill.stderr).toMatch(/skill: "ghost" matches no skill of this server/);
  });
});
