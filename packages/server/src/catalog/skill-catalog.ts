import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import type { AgentSkillVariant } from '@agent-runs/core/contract';
import type { ServerConfig } from '../domain/server-config.js';
import { MAX_SKILL_BYTES, parseSkillFile } from './skill-file.js';

const run = promisify(execFile);
const MAX_DEPTH = 6;
const MAX_SKILLS = 1000;
const CLONE_TIMEOUT_MS = 120_000;
/** At most one refresh (`GET /agent?refresh=true`, which clones every repository again) this often. */
export const MIN_REFRESH_INTERVAL_MS = 30_000;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/** One SKILL.md the server found. */
export interface SkillVariant {
  /** `owner/repo:path/to/SKILL.md`: the canonical spec. */
  id: string;
  name: string;
  description: string;
  basePrompt: string;
  owner: string;
  repo: string;
  skillPath: string;
  environments: { uid: string; name: string }[];
  error?: string | undefined;
}

function findSkillFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || found.length >= MAX_SKILLS) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) walk(join(dir, entry.name), depth + 1);
      else if (entry.isFile() && entry.name === 'SKILL.md') found.push(join(dir, entry.name));
    }
  };
  walk(root, 0);
  return found;
}

function readVariant(file: string, root: string, owner: string, repo: string, environments: SkillVariant['environments']): SkillVariant {
  const skillPath = relative(root, file).split(sep).join('/');
  const fallbackName = basename(dirname(file)) === basename(root) ? repo : basename(dirname(file));
  const base = { id: `${owner}/${repo}:${skillPath}`, owner, repo, skillPath, environments };
  if (statSync(file).size > MAX_SKILL_BYTES) {
    return { ...base, name: fallbackName, description: '', basePrompt: '', error: `larger than ${MAX_SKILL_BYTES / 1024} KiB` };
  }
  const text = parseSkillFile(readFileSync(file, 'utf8'), fallbackName);
  return { ...base, name: text.name, description: text.description, basePrompt: text.body, error: text.error };
}

/**
 * The skills the server can find: SKILL.md files under the configured directories and in
 * the environments' repositories (cloned once into a cache, again on refresh).
 */
export class SkillCatalog {
  /** The last list read (or the first being read). */
  private loaded: Promise<SkillVariant[]> | undefined;
  /** The one load under way; every caller meanwhile waits for it rather than starting its own. */
  private inFlight: Promise<SkillVariant[]> | undefined;
  private lastRefreshAt = -Infinity;

  constructor(
    private readonly config: ServerConfig,
    private readonly cacheRoot: string,
    private readonly log: (line: string) => void,
    /** Refreshes closer together than this answer the list of the last one rather than cloning again. */
    private readonly minRefreshIntervalMs = MIN_REFRESH_INTERVAL_MS,
  ) {}

  /** Every variant found, malformed ones included (they carry `error`). */
  variants(refresh = false): Promise<SkillVariant[]> {
    if (this.inFlight) return this.inFlight;
    const due = refresh && performance.now() - this.lastRefreshAt >= this.minRefreshIntervalMs;
    if (this.loaded && !due) return this.loaded;
    if (due) this.lastRefreshAt = performance.now();
    const previous = this.loaded;
    const loading = this.load(due).catch((error: unknown) => {
      // A failed refresh keeps the list it would have replaced; a failed first load is retried on the next call.
      this.log(`Could not read the skills: ${(error as Error).message}`);
      if (previous) return previous;
      throw error;
    });
    this.inFlight = loading;
    this.loaded = loading;
    const settle = () => {
      if (this.inFlight === loading) this.inFlight = undefined;
    };
    loading.then(settle, () => {
      settle();
      if (this.loaded === loading) this.loaded = undefined;
    });
    return loading;
  }

  private async load(refresh: boolean): Promise<SkillVariant[]> {
    const variants: SkillVariant[] = [];
    for (const dir of this.config.skillDirectories) {
      for (const file of findSkillFiles(dir)) variants.push(readVariant(file, dir, 'local', basename(dir), []));
    }
    const byKey = new Map<string, SkillVariant>();
    for (const env of this.config.environments) {
      for (const repo of env.repos) {
        const envDir = resolve(this.cacheRoot, env.id);
        const checkout = resolve(envDir, repo.path);
        // A checkout is removed before each clone: never anything but a directory inside its environment's.
        if (dirname(envDir) !== resolve(this.cacheRoot) || !checkout.startsWith(envDir + sep)) {
          this.log(`Not looking for skills in ${repo.url}: environment "${env.id}" with path "${repo.path}" is outside the skill cache.`);
          continue;
        }
        if (!(await this.checkout(repo.url, repo.ref, checkout, refresh))) continue;
        for (const file of findSkillFiles(checkout)) {
          const variant = readVariant(file, checkout, repo.owner, repo.repo, [{ uid: env.id, name: env.name }]);
          const same = byKey.get(variant.id);
          if (same) {
            same.environments.push(...variant.environments);
          } else {
            byKey.set(variant.id, variant);
            variants.push(variant);
          }
        }
      }
    }
    return variants;
  }

  private async checkout(url: string, ref: string | undefined, dir: string, refresh: boolean): Promise<boolean> {
    if (existsSync(join(dir, '.git')) && !refresh) return true;
    // Cloned beside the old checkout and swapped in: a clone that fails keeps the skills it had.
    const next = `${dir}.next`;
    rmSync(next, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    try {
      await run('git', ['clone', '--quiet', '--depth', '1', ...(ref ? ['--branch', ref] : []), '--', url, next], {
        timeout: CLONE_TIMEOUT_MS,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      });
    } catch (error) {
      rmSync(next, { recursive: true, force: true });
      this.log(`Could not look for skills in ${url}: ${((error as { stderr?: string }).stderr || (error as Error).message).trim()}`);
      return existsSync(join(dir, '.git'));
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(next, dir);
    return true;
  }
}

/** The contract's variant. */
export function toVariant(v: SkillVariant, lastRun: string | undefined): AgentSkillVariant {
  return {
    id: v.id,
    description: v.description,
    base_prompt: v.basePrompt,
    source: { owner: v.owner, name: v.repo, skill_path: v.skillPath },
    environments: v.environments,
    error: v.error || undefined,
    last_run_timestamp: lastRun ?? null,
  };
}
