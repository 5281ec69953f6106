import { BUDGET_LIMITS, BUDGET_MINIMA, type RunBudget } from '@agent-runs/core';
import type { FlagSpec } from '../flags/flag-spec.js';
import type { ParsedFlags } from '../flags/parsed-flags.js';
import { UsageError } from '../usage-error.js';
import { durationFlag } from './duration-flag.js';

/** The caps of a run's budget, as flags of `run` and `followup` (at a cap the run ends BLOCKED). */
export const BUDGET_FLAGS: Record<string, FlagSpec> = {
  'max-cost-usd': {
    type: 'string',
    value: '<usd>',
    description: `Stop the run (BLOCKED) once its inference cost reaches this many US dollars (${BUDGET_MINIMA.max_cost_usd} to ${BUDGET_LIMITS.max_cost_usd})`,
  },
  'max-tokens': { type: 'string', value: '<n>', description: `Stop the run (BLOCKED) once it has used this many tokens (1 to ${BUDGET_LIMITS.max_tokens})` },
  'max-duration': { type: 'string', value: '<duration>', description: 'Stop each execution (BLOCKED) after this long, e.g. 45m (at most 7d)' },
};

/** Which flag sets each cap: the client's validation errors name these. */
export const BUDGET_FLAG_NAMES = {
  'config.budget.max_cost_usd': '--max-cost-usd',
  'config.budget.max_tokens': '--max-tokens',
  'config.budget.max_duration_seconds': '--max-duration',
  'agent_config.budget.max_cost_usd': '--max-cost-usd',
  'agent_config.budget.max_tokens': '--max-tokens',
  'agent_config.budget.max_duration_seconds': '--max-duration',
  'budget.max_cost_usd': '--max-cost-usd',
  'budget.max_tokens': '--max-tokens',
  'budget.max_duration_seconds': '--max-duration',
} as const;

function number(flags: ParsedFlags, name: 'max-cost-usd' | 'max-tokens', field: 'max_cost_usd' | 'max_tokens'): number | undefined {
  const text = flags.string(name);
  if (text === undefined) return undefined;
  const integer = field === 'max_tokens';
  const value = (integer ? /^\d+$/ : /^(\d+(\.\d*)?|\.\d+)$/).test(text.trim()) ? Number(text) : Number.NaN;
  const [min, max] = [BUDGET_MINIMA[field], BUDGET_LIMITS[field]];
  if (!(value >= min && value <= max)) {
    throw new UsageError(`--${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${text}".`, flags.command);
  }
  return value;
}

/** The budget the flags name, or undefined when they name no cap. */
export function budgetFromFlags(flags: ParsedFlags): RunBudget | undefined {
  const budget: RunBudget = {};
  const cost = number(flags, 'max-cost-usd', 'max_cost_usd');
  if (cost !== undefined) budget.max_cost_usd = cost;
  const tokens = number(flags, 'max-tokens', 'max_tokens');
  if (tokens !== undefined) budget.max_tokens = tokens;
  const ms = durationFlag(flags, 'max-duration');
  if (ms !== undefined) {
    const seconds = Math.ceil(ms / 1000);
    if (seconds > BUDGET_LIMITS.max_duration_seconds) {
      throw new UsageError(`--max-duration must be at most 7d (${BUDGET_LIMITS.max_duration_seconds} seconds), got "${flags.string('max-duration')}".`, flags.command);
    }
    budget.max_duration_seconds = seconds;
  }
  return Object.keys(budget).length > 0 ? budget : undefined;
}
