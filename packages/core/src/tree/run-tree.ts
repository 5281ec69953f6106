import type { RunItem } from '../contract/run-item.js';

/** A run and the runs it started (by `parent_run_id`), oldest first. */
export interface RunTreeNode {
  run: RunItem;
  children: RunTreeNode[];
}

/** The most runs a tree is read with: a bound on what one call may page through. */
export const MAX_TREE_RUNS = 1000;

/**
 * The tree under `rootId` from runs listed with `ancestor_run_id` (the root among them). A run
 * whose parent is not among them hangs under the root, so none is lost, and each is placed
 * once, so a parent chain that loops (which the server never makes) cannot recurse.
 */
export function buildRunTree(runs: readonly RunItem[], rootId: string): RunTreeNode | undefined {
  const byId = new Map(runs.map((run) => [run.run_id, { run, children: [] as RunTreeNode[] }]));
  const root = byId.get(rootId);
  if (!root) return undefined;
  const sorted = [...byId.values()].sort((a, b) => a.run.created_at.localeCompare(b.run.created_at) || a.run.run_id.localeCompare(b.run.run_id));
  // Oldest first, each under a parent already placed: a child is made after its parent, and a
  // run whose parent is missing (or placed later, as a loop would have it) goes under the root.
  const placed = new Set<RunTreeNode>([root]);
  for (const node of sorted) {
    if (node === root) continue;
    const parent = node.run.parent_run_id ? byId.get(node.run.parent_run_id) : undefined;
    (parent && placed.has(parent) ? parent : root).children.push(node);
    placed.add(node);
  }
  return root;
}

/** Every run of a tree, depth first (the root first). */
export function treeRuns(node: RunTreeNode): RunItem[] {
  const out: RunItem[] = [];
  const seen = new Set<string>();
  const walk = (n: RunTreeNode) => {
    if (seen.has(n.run.run_id)) return;
    seen.add(n.run.run_id);
    out.push(n.run);
    for (const child of n.children) walk(child);
  };
  walk(node);
  return out;
}

/** How many of the tree's runs below the root are in each state. */
export function childStates(node: RunTreeNode): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const run of treeRuns(node).slice(1)) counts[run.state] = (counts[run.state] ?? 0) + 1;
  return counts;
}
