import * as core from '@actions/core';
import type { AgentRunsClient, RunItem, RunTreeNode } from '@agent-runs/core';
import { escapeRunText } from './workflow-text.js';

/** The runs a run started, and theirs, as the summary shows them (none when it could not be read). */
export async function runChildren(client: AgentRunsClient, run: RunItem): Promise<RunTreeNode | undefined> {
  try {
    const tree = await client.runs.tree(run.run_id);
    return tree.children.length > 0 ? tree : undefined;
  } catch (error) {
    core.debug(`The runs ${run.run_id} started were not read: ${(error as Error).message}`);
    return undefined;
  }
}

/** The children as nested lists: each one's state, title and id (all run text, escaped). */
export function childrenHtml(tree: RunTreeNode | undefined): string {
  if (!tree || tree.children.length === 0) return '';
  const seen = new Set<string>([tree.run.run_id]);
  const list = (nodes: readonly RunTreeNode[]): string =>
    `<ul>${nodes
      .filter((n) => !seen.has(n.run.run_id) && seen.add(n.run.run_id))
      .map((n) => `<li><b>${escapeRunText(n.run.state)}</b> ${escapeRunText(n.run.title)} (<code>${escapeRunText(n.run.run_id)}</code>)${n.children.length ? list(n.children) : ''}</li>`)
      .join('')}</ul>`;
  return `<h4>Runs it started</h4>\n${list(tree.children)}\n`;
}
