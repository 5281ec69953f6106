import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerConfigError, startServer } from '@agent-runs/server';
import { SkillCatalog } from '../../src/catalog/skill-catalog.js';
import { EMPTY_CONFIG } from '../../src/domain/server-config.js';
import { gitRepo } from '../support/git-repo.js';
import { writeServerConfig } from '../support/server-config.js';

const repo = gitRepo({ 'skills/lint/SKILL.md': '---\nname: lint\n---\nRun the linter.\n' });

/** A data directory holding a file the server must never delete. */
function dataDirWithSentinel(): { dataDir: string; sentinel: string } {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'agent-runs-data-')), 'data');
  const sentinel = join(dataDir, 'keep-me');
  // The server makes the directory; the sentinel goes in once it exists.
  return { dataDir, sentinel };
}

describe('environment ids and repository paths', () => {
  it('refuses the environment id ".." with path "." at start, and the data directory survives', async () => {
    // The reproduction: id ".." and path "." made the skill cache's checkout the data directory, removed before cloning.
    const { dataDir, sentinel } = dataDirWithSentinel();
    const first = await startServer({ dataDir, quiet: true });
    await first.close();
    writeFileSync(sentinel, 'runs.sqlite lives here');
    const configFile = writeServerConfig({ environments: { '..': { repos: [{ url: repo, path: '.' }] } } });
    const started = startServer({ dataDir, quiet: true, configFile });
    await expect(started).rejects.toThrow(ServerConfigError);
    await expect(started).rejects.toThrow(/environments\.\.\.: an environment id is 1-100 letters, digits, "\.", "_" or "-", and not "\." or "\.\."/);
    expect(readFileSync(sentinel, 'utf8')).toBe('runs.sqlite lives here');
    expect(existsSync(join(dataDir, 'runs.sqlite'))).toBe(true);
  });

  it('refuses "." as an environment id and as a repository path, naming the key', async () => {
    const dotId = writeServerConfig({ environments: { '.': { repos: [{ url: repo }] } } });
    await expect(startServer({ storage: 'memory', quiet: true, configFile: dotId })).rejects.toThrow(/and not "\." or "\.\."/);
    for (const path of ['.', './', './.']) {
      const dotPath = writeServerConfig({ environments: { web: { repos: [{ url: repo, path }] } } });
      await expect(startServer({ storage: 'memory', quiet: true, configFile: dotPath })).rejects.toThrow(
        /environments\.web\.repos\[0\]\.path: must name a directory inside the working directory, not "\."/,
      );
    }
  });

  it('refuses a repository whose name read from the URL is "." or "..", when no path is given', async () => {
    const configFile = writeServerConfig({ environments: { web: { repos: [{ url: 'https://example.com/acme/..' }] } } });
    await expect(startServer({ storage: 'memory', quiet: true, configFile })).rejects.toThrow(
      /environments\.web\.repos\[0\]\.url: the repository's name "\.\." is no directory inside the working directory; give it a path/,
    );
  });

  it('the skill cache never removes a directory outside its own, whatever configuration it is handed', async () => {
    const { dataDir, sentinel } = dataDirWithSentinel();
    const first = await startServer({ dataDir, quiet: true });
    await first.close();
    writeFileSync(sentinel, 'still here');
    const lines: string[] = [];
    const environments = [
      { id: '..', name: 'up', description: undefined, repos: [{ url: repo, path: '.', owner: 'o', repo: 'r' }], setupCommands: [] },
      { id: 'web', name: 'web', description: undefined, repos: [{ url: repo, path: '../..', owner: 'o', repo: 'r' }], setupCommands: [] },
      { id: 'ok', name: 'ok', description: undefined, repos: [{ url: repo, path: 'tools', owner: 'o', repo: 'r' }], setupCommands: [] },
    ];
    const catalog = new SkillCatalog({ ...EMPTY_CONFIG, environments }, join(dataDir, 'skill-repos'), (line) => lines.push(line));
    const variants = await catalog.variants(true);
    expect(readFileSync(sentinel, 'utf8')).toBe('still here');
    expect(variants.map((v) => v.id)).toEqual(['o/r:skills/lint/SKILL.md']);
    expect(lines.filter((line) => /outside the skill cache/.test(line))).toHaveLength(2);
  });
});
