import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../support/git-repo.js';
import { tempTree, writeServerConfig } from '../support/server-config.js';
import { startTestServer, type TestServer } from '../support/start-test-server.js';

const repos = [1, 2, 3].map((n) => gitRepo({ [`skills/s${n}/SKILL.md`]: `---\nname: s${n}\n---\nSkill ${n}.\n` }));
// Git writes a line per command it runs here: the clones are counted, not guessed.
const trace = join(tempTree(), 'git-trace.log');
const clones = () => readFileSync(trace, 'utf8').split('\n').filter((line) => /trace: built-in: git clone /.test(line)).length;

let t: TestServer;
let savedTrace: string | undefined;
beforeAll(async () => {
  savedTrace = process.env.GIT_TRACE;
  writeFileSync(trace, '');
  process.env.GIT_TRACE = trace;
  t = await startTestServer({
    configFile: writeServerConfig({ environments: { web: { repos: repos.map((url, i) => ({ url, path: `r${i}` })) } } }),
  });
});
afterAll(async () => {
  if (savedTrace === undefined) delete process.env.GIT_TRACE;
  else process.env.GIT_TRACE = savedTrace;
  await t.close();
});

const names = (body: { agents: { name: string }[] }) => body.agents.map((a) => a.name);

describe('GET /agent?refresh=true', () => {
  it('twelve at once make one refresh, and every one answers the full list', async () => {
    // The reproduction: twelve concurrent refreshes each removed and cloned every repository, and got 500s and empty lists.
    expect(names((await t.raw('/api/v1/agent')).body)).toEqual(['s1', 's2', 's3']);
    const before = clones();
    expect(before).toBe(3);
    const answers = await Promise.all(Array.from({ length: 12 }, () => t.raw('/api/v1/agent?refresh=true')));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual(['s1', 's2', 's3']);
    }
    expect(clones() - before).toBe(3);
  });

  it('is rate-limited: a refresh right after another answers the list without cloning again', async () => {
    const before = clones();
    const res = await t.raw('/api/v1/agent?refresh=true');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['s1', 's2', 's3']);
    expect(clones()).toBe(before);
  });
});
