import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram } from '../../src/executors/sandbox/find-program.js';
import { readRunTree, type TreeReads } from '../support/agent-tree-reads.js';

/**
 * Reproduction (issue 45, item 1): the agent owns its execution's directory, its artifacts
 * and attachments directories and its working directory, so it can put a link at any name
 * in them: the file the server reads, the directory it lists, or a directory above it. The
 * server read through such a link with its own rights (the data directory came back as
 * artifacts). Each read of the agent's tree (the report, the artifacts, the handoff
 * attachments listed and downloaded, a harness's stream and turns, the repositories
 * `changes.patch` is taken from) is made here with each of those replaced by a link to a
 * tree of files marked SECRET, which the reader may read: none may come back.
 *
 * Once on a root server (in this process) and once on a non-root one: the same reads in a
 * child process running as nobody (65534), bundled into a directory it can read, over trees
 * it owns. Then once more where there is no `/proc` (the walk by path, as on macOS): the
 * child in bubblewrap with an empty `/proc`.
 */
const RUN = 'run-1';
const EXEC = `.agent-runs/${RUN}/executions/1`;

const HONEST: Record<string, string> = {
  [`${EXEC}/report.jsonl`]: '{"type":"RESULT","message":"honest result"}\n',
  [`${EXEC}/artifacts/out.txt`]: 'honest artifact',
  [`${EXEC}/harness-stream.jsonl`]: '{"line":"honest stream"}\n',
  [`${EXEC}/harness-turns.jsonl`]: '{"part":"text","text":"honest turn","at":"2026-01-01T00:00:00.000Z"}\n',
  [`.agent-runs/${RUN}/attachments/notes.txt`]: 'honest notes',
  [`${RUN}/repo/.git/HEAD`]: 'ref: refs/heads/main\n',
};

/** What a link may point at: the same layout, every file marked SECRET (and the files a server keeps). */
const SECRET_EXEC: Record<string, string> = {
  'report.jsonl': '{"type":"RESULT","message":"SECRET result"}\n',
  'artifacts/runs.sqlite': 'SECRET database',
  'harness-stream.jsonl': '{"line":"SECRET stream"}\n',
  'harness-turns.jsonl': '{"part":"text","text":"SECRET turn","at":"2026-01-01T00:00:00.000Z"}\n',
};
const DECOY: Record<string, string> = {
  'session-secret': 'SECRET session secret',
  ...prefixed('executions/1/', SECRET_EXEC),
  ...prefixed('run/executions/1/', SECRET_EXEC),
  'run/attachments/notes.txt': 'SECRET notes',
  'work/SECRET-repo/.git/HEAD': 'SECRET head',
};

/** Each name of the agent's tree the server reads at, replaced by a link (path beneath the work root → target beneath the decoy). */
const LINKS: Record<string, [string, string]> = {
  'the artifact file': [`${EXEC}/artifacts/out.txt`, 'session-secret'],
  'the artifacts directory': [`${EXEC}/artifacts`, 'executions/1/artifacts'],
  'the execution directory (the artifacts’, report’s and streams’ parent)': [EXEC, 'executions/1'],
  'the executions directory above it': [`.agent-runs/${RUN}/executions`, 'executions'],
  'the report file': [`${EXEC}/report.jsonl`, 'executions/1/report.jsonl'],
  'the harness stream file': [`${EXEC}/harness-stream.jsonl`, 'executions/1/harness-stream.jsonl'],
  'the harness turns file': [`${EXEC}/harness-turns.jsonl`, 'executions/1/harness-turns.jsonl'],
  'the attachment file': [`.agent-runs/${RUN}/attachments/notes.txt`, 'session-secret'],
  'the attachments directory': [`.agent-runs/${RUN}/attachments`, 'run/attachments'],
  'the run’s protocol directory (the attachments’ parent)': [`.agent-runs/${RUN}`, 'run'],
  'the working directory': [RUN, 'work'],
  'a repository in the working directory': [`${RUN}/repo`, 'work/SECRET-repo'],
};

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [`${prefix}${path}`, text]));
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function chownTree(path: string, uid: number): void {
  spawnSync('chown', ['-R', '-h', `${uid}:${uid}`, path]);
}

/** One work root per case (none replaced, then each link), each beside a decoy tree; the work roots by case. */
function makeTrees(base: string): Record<string, string> {
  const roots: Record<string, string> = {};
  for (const [name, link] of [['nothing replaced', undefined], ...Object.entries(LINKS)] as [string, [string, string] | undefined][]) {
    const dir = join(base, `case-${Object.keys(roots).length}`);
    const work = join(dir, 'work');
    const decoy = join(dir, 'decoy');
    writeTree(work, HONEST);
    writeTree(decoy, DECOY);
    if (link) {
      const at = join(work, link[0]);
      rmSync(at, { recursive: true, force: true });
      symlinkSync(join(decoy, link[1]), at);
    }
    roots[name] = work;
  }
  return roots;
}

const HONEST_READS: TreeReads = {
  report: { result: 'honest result', artifacts: [{ name: 'out.txt', text: 'honest artifact' }], notes: [] },
  handoff: ['notes.txt'],
  download: 'honest notes',
  transcript: [JSON.stringify({ kind: 'harness', execution: 1, line: '{"line":"honest stream"}' })],
  turns: [JSON.stringify([{ type: 'text', message_id: `${RUN}:1:turn:0`, text: 'honest turn' }])],
  repositories: ['/repo'],
};

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const base = mkdtempSync(join(tmpdir(), 'agent-runs-tree-links-'));
chmodSync(base, 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The reads of every case, made as `uid` in a child process (the reader bundled where that user can read it), without `/proc` when `noProc`. */
async function readInChild(roots: Record<string, string>, uid: number | undefined, noProc: boolean): Promise<Record<string, TreeReads>> {
  const bundle = join(base, 'reader.cjs');
  await build({
    stdin: {
      contents: `import { readRunTree } from './agent-tree-reads.ts';
const roots = JSON.parse(process.argv[2]);
process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(roots).map(([name, root]) => [name, readRunTree(root, ${JSON.stringify(RUN)})]))));`,
      resolveDir: join(dirname(fileURLToPath(import.meta.url)), '..', 'support'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundle,
    logLevel: 'silent',
  });
  chmodSync(bundle, 0o644);
  const node = [process.execPath, bundle, JSON.stringify(roots)];
  const [command, ...args] = noProc ? [bwrap!, '--dev-bind', '/', '/', '--tmpfs', '/proc', ...node] : node;
  const child = spawnSync(command!, args, { cwd: base, ...(uid === undefined ? {} : { uid, gid: uid }), encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) throw new Error(`the reader as uid ${uid} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Record<string, TreeReads>;
}

describe('a work root no agent has made yet', () => {
  it('reads as nothing there, without an error', () => {
    expect(readRunTree(join(base, 'never-made'), RUN)).toEqual({
      report: { result: undefined, artifacts: [], notes: [] },
      handoff: [],
      download: null,
      transcript: [],
      turns: [],
      repositories: [],
    });
  });
});

const bwrap = findProgram('bwrap');
const servers = [
  { server: 'a root server', uid: undefined, noProc: false, runs: true },
  { server: 'a non-root server (nobody)', uid: NOBODY, noProc: false, runs: isRoot },
  { server: 'a server without /proc', uid: undefined, noProc: true, runs: isRoot && bwrap !== undefined },
];

describe.each(servers)('every read of an agent’s tree, on $server', ({ uid, noProc, runs }) => {
  let reads: Record<string, TreeReads>;
  beforeAll(async () => {
    if (!runs) return; // Another user's reads, or bubblewrap's namespaces, need root.
    const dir = join(base, `case-${uid ?? 'root'}${noProc ? '-no-proc' : ''}`);
    mkdirSync(dir, { mode: 0o755 });
    const roots = makeTrees(dir);
    if (uid === undefined && !noProc) {
      reads = Object.fromEntries(Object.entries(roots).map(([name, root]) => [name, readRunTree(root, RUN)]));
    } else {
      if (uid !== undefined) chownTree(dir, uid);
      reads = await readInChild(roots, uid, noProc);
    }
  }, 90_000);

  it.skipIf(!runs)('reads everything the agent left when nothing is a link', () => {
    expect(reads['nothing replaced']).toEqual(HONEST_READS);
  });

  it.skipIf(!runs).each(Object.keys(LINKS))('reads nothing through %s replaced by a link', (name) => {
    const got = reads[name]!;
    expect(JSON.stringify(got)).not.toContain('SECRET');
  });

  it.skipIf(!runs)('says so when the artifacts directory, or one above it, is a link', () => {
    const note = 'the artifacts directory (or a directory above it) was replaced by a symbolic link or a file; nothing in it was read.';
    expect(reads['the artifacts directory']!.report.notes).toEqual([note]);
    expect(reads['the execution directory (the artifacts’, report’s and streams’ parent)']!.report.notes).toEqual([
      `the report file lies under .agent-runs/${RUN}/executions/1, which is a symbolic link or not a directory; it was not read.`,
      note,
    ]);
  });
});
