import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

// The reproduction: a NUL in a SKILL.md was offered as a skill, and every run of it ended in ERROR.
const skillsRoot = tempTree({
  'team/review/SKILL.md': '---\nname: review\ndescription: Review a change\n---\nRead the diff.\0Say what breaks.\n',
  'team/lint/SKILL.md': '---\nname: lint\n---\nRun the linter.\n',
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ executor: 'command', command: 'cat > /dev/null', configFile: writeServerConfig({ skill_directories: [join(skillsRoot, 'team')] }) });
});
afterAll(() => t.close());

describe('a SKILL.md holding a NUL', () => {
  it('is not offered, and is listed among the malformed with the reason', async () => {
    const offered = await t.raw('/api/v1/agent');
    expect(offered.body.agents.map((a: { name: string }) => a.name)).toEqual(['lint']);
    const all = await t.raw('/api/v1/agent?include_malformed_skills=true');
    const review = all.body.agents.find((a: { name: string }) => a.name === 'review');
    expect(review.variants[0]).toMatchObject({ id: 'local/team:review/SKILL.md', base_prompt: '', error: 'the file holds a NUL character (line 5); a SKILL.md is text' });
  });

  it('refuses a run of it with a 400 naming the field and the reason, and starts none', async () => {
    const res = await t.raw('/api/v1/agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Review PR 1', skill: 'team:review' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('skill: "team:review" names a SKILL.md that cannot be used: the file holds a NUL character (line 5); a SKILL.md is text.');
    const runs = await t.raw('/api/v1/agent/runs');
    expect(runs.body.runs).toEqual([]);
  });
});
