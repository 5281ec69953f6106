import { visibleText, type RunTreeNode } from '@agent-runs/core';
import type { Paint } from './colors.js';

/**
 * A run's tree as indented lines: each run's id, state and title, its children beneath it
 * with box-drawing branches. Titles come from the server: control characters are shown, never
 * sent to the terminal, and each is cut to one line.
 */
export function renderRunTree(root: RunTreeNode, paint: Paint): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  const line = (node: RunTreeNode, lead: string, branch: string) => {
    const { run } = node;
    const title = visibleText(run.title).replace(/\s+/g, ' ').slice(0, 120);
    lines.push(`${lead}${branch}${visibleText(run.run_id)}  ${paint.state(visibleText(run.state))}  ${title}`);
  };
  const walk = (node: RunTreeNode, lead: string) => {
    node.children.forEach((child, i) => {
      if (seen.has(child.run.run_id)) return;
      seen.add(child.run.run_id);
      const last = i === node.children.length - 1;
      line(child, lead, last ? '└─ ' : '├─ ');
      walk(child, `${lead}${last ? '   ' : '│  '}`);
    });
  };
  seen.add(root.run.run_id);
  line(root, '', '');
  walk(root, '');
  return `${lines.join('\n')}\n`;
}
