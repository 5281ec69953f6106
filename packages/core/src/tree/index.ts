/** Runs as the tree their `parent_run_id` makes: for pages and tools that show a run's children. */
export { buildRunTree, childStates, treeRuns, MAX_TREE_RUNS, type RunTreeNode } from './run-tree.js';
