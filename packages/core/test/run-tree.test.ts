import { describe, expect, it } from 'vitest';
import { buildRunTree, childStates, treeRuns, type RunItem } from '../src/index.js';

const run = (run_id: string, parent_run_id: string | undefined, state: RunItem['state'], created_at: string): RunItem =>
  ({ run_id, task_id: run_id, title: run_id, state, prompt: 'p', created_at, updated_at: created_at, ...(parent_run_id ? { parent_run_id } : {}) }) as RunItem;

describe('a run tree', () => {
  it('hangs each run under its parent, oldest first, and one whose parent is missing under the root', () => {
    const runs = [
      run('c2', 'root', 'QUEUED', '2026-01-01T00:00:03Z'),
      run('root', undefined, 'INPROGRESS', '2026-01-01T00:00:00Z'),
      run('c1', 'root', 'SUCCEEDED', '2026-01-01T00:00:01Z'),
      run('g1', 'c1', 'FAILED', '2026-01-01T00:00:02Z'),
      run('lost', 'gone', 'SUCCEEDED', '2026-01-01T00:00:04Z'),
    ];
    const tree = buildRunTree(runs, 'root')!;
    expect(tree.children.map((c) => c.run.run_id)).toEqual(['c1', 'c2', 'lost']);
    expect(tree.children[0]!.children.map((c) => c.run.run_id)).toEqual(['g1']);
    expect(treeRuns(tree).map((r) => r.run_id)).toEqual(['root', 'c1', 'g1', 'c2', 'lost']);
    expect(childStates(tree)).toEqual({ SUCCEEDED: 2, FAILED: 1, QUEUED: 1 });
  });

  it('places each run once, even where parents loop', () => {
    const runs = [run('root', undefined, 'SUCCEEDED', '2026-01-01T00:00:00Z'), run('a', 'b', 'SUCCEEDED', '2026-01-01T00:00:01Z'), run('b', 'a', 'SUCCEEDED', '2026-01-01T00:00:02Z')];
    const tree = buildRunTree(runs, 'root')!;
    expect(treeRuns(tree).map((r) => r.run_id).sort()).toEqual(['a', 'b', 'root']);
    expect(buildRunTree(runs, 'missing')).toBeUndefined();
  });
});
