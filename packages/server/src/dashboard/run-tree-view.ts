import type { RunTreeNode } from '@agent-runs/core/tree';
import { html, type SafeHtml } from './html.js';
import { stateBadge } from './run-row.js';

/** The runs a run started, and theirs, as nested lists: each one's state and a link to its page. */
export function runTreeView(root: RunTreeNode | undefined, truncated: boolean): SafeHtml {
  if (!root || root.children.length === 0) return html``;
  const seen = new Set<string>([root.run.run_id]);
  const list = (nodes: readonly RunTreeNode[]): SafeHtml =>
    html`<ul class="run-tree">${nodes
      .filter((node) => !seen.has(node.run.run_id) && seen.add(node.run.run_id))
      .map(
        (node) =>
          html`<li>${stateBadge(node.run.state)} <a href="/runs/${encodeURIComponent(node.run.run_id)}">${node.run.title || node.run.run_id}</a>${
            node.children.length ? list(node.children) : ''
          }</li>`,
      )}</ul>`;
  return html`<section aria-labelledby="h-children" id="children-section"><h2 id="h-children">Runs it started</h2>${list(root.children)}${
    truncated ? html`<p class="muted">Only the first runs of this tree are shown.</p>` : ''
  }</section>`;
}
