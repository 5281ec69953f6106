import { describe, expect, it } from 'vitest';
import { formatSpend, runSummaryRows, type RunItem } from '@agent-runs/core';

const run = (agentConfig: Record<string, unknown>, usage?: Record<string, unknown>) =>
  ({ run_id: 'r1', state: 'BLOCKED', title: 't', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', agent_config: agentConfig, ...(usage ? { request_usage: usage } : {}) }) as unknown as RunItem;

describe('the spend against a run\'s caps', () => {
  it('shows the cost and the tokens against their caps, and nothing for a run without one', () => {
    expect(formatSpend(run({ budget: { max_cost_usd: 1 } }, { inference_cost_usd: 0.4215 }))).toBe('$0.4215 of $1.00');
    expect(formatSpend(run({ budget: { max_cost_usd: 2.5, max_tokens: 50_000 } }, { inference_cost_usd: 2.61, total_tokens: 12_034 }))).toBe('$2.61 of $2.50, 12,034 of 50,000 tokens');
    expect(formatSpend(run({ budget: { max_tokens: 100 } }))).toBe('0 of 100 tokens');
    expect(formatSpend(run({ budget: { max_duration_seconds: 60 } }))).toBeUndefined();
    expect(formatSpend(run({}))).toBeUndefined();
  });

  it('is a row of the run summary that the CLI, the Action and the MCP server show', () => {
    expect(runSummaryRows(run({ budget: { max_cost_usd: 1 } }, { inference_cost_usd: 1.02 }))).toContainEqual(['Budget', '$1.02 of $1.00 spent']);
  });
});
