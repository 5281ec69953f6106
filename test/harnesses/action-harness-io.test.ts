import { describe, expect, it } from 'vitest';
import type { RunItem } from '@agent-runs/core';
import { readInputs } from '../../packages/action/dist/inputs.js';
import { runOutputs } from '../../packages/action/dist/outputs.js';

describe('the Action with harnesses', () => {
  it('inputs harness and model become config.harness', () => {
    const values: Record<string, string> = { prompt: 'Fix the test', harness: 'claude', model: 'claude-sonnet-4-5', 'api-key': 'test-key-0123456789' };
    const inputs = readInputs((name) => values[name] ?? '', {});
    expect(inputs.request.config?.harness).toEqual({ type: 'claude', model_id: 'claude-sonnet-4-5' });
    expect(inputs.request.config?.model_id).toBeUndefined();
  });

  it('refuses a harness it does not know, naming the input', () => {
    const values: Record<string, string> = { prompt: 'Fix the test', harness: 'cursor', 'api-key': 'test-key-0123456789' };
    expect(() => readInputs((name) => values[name] ?? '', {})).toThrow(/Input "harness" must be claude, codex, gemini or oz/);
  });

  it('outputs cost-usd and total-tokens from request_usage, empty without it', () => {
    const run = { run_id: 'r', state: 'SUCCEEDED', title: 't', request_usage: { inference_cost_usd: 0.00186525, total_tokens: 405 } } as unknown as RunItem;
    expect(runOutputs(run)).toMatchObject({ 'cost-usd': '0.00186525', 'total-tokens': '405' });
    expect(runOutputs({ ...run, request_usage: undefined })).toMatchObject({ 'cost-usd': '', 'total-tokens': '' });
  });
});
