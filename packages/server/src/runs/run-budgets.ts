import { BUDGET_FIELDS, type AmbientAgentConfig, type RunBudget } from '@agent-runs/core/contract';
import { InvalidInputError } from '../domain/domain-errors.js';
import type { BudgetCaps, BudgetPolicy, BudgetRule } from '../domain/server-config.js';

/**
 * The `budgets:` section applied to runs. A run gets, cap by cap, the default of its
 * principal, else of its environment, else the top level's; it may name any cap up to the
 * lowest maximum of those three that sets one (every maximum that applies holds). A default
 * above the maximum is taken down to it.
 */
export class RunBudgets {
  constructor(private readonly policy: BudgetPolicy | undefined) {}

  /** The configuration with the budget the run gets; a cap above its maximum is an InvalidInputError naming the field. */
  apply(config: AmbientAgentConfig, principal: string | undefined): AmbientAgentConfig {
    const rules = this.rules(principal, config.environment_id);
    const max = maximum(rules);
    if (config.budget) this.check(config.budget, max, principal, config.environment_id, 'agent_config.budget');
    const defaults = fallback(rules);
    const budget: BudgetCaps = {};
    for (const field of BUDGET_FIELDS) {
      const value = config.budget?.[field] ?? lower(defaults[field], max[field]);
      if (value !== undefined) budget[field] = value;
    }
    return Object.keys(budget).length ? { ...config, budget: budget as RunBudget } : config;
  }

  /** A follow-up's new budget, held to the run's principal's and environment's maxima (at `path`). */
  checkRaise(budget: RunBudget, principal: string | undefined, environmentId: string | undefined, path: string): void {
    this.check(budget, maximum(this.rules(principal, environmentId)), principal, environmentId, path);
  }

  private check(budget: RunBudget, max: BudgetCaps, principal: string | undefined, environmentId: string | undefined, path: string): void {
    const issues = BUDGET_FIELDS.flatMap((field) => {
      const value = budget[field];
      const most = max[field];
      if (value === undefined || most === undefined || value <= most) return [];
      return [{ path: `${path}.${field}`, message: `must be at most ${most}, the maximum ${this.whose(field, principal, environmentId)} (the configuration file's budgets: section).` }];
    });
    if (issues.length) throw new InvalidInputError(issues);
  }

  /** Which rule's maximum of `field` holds, for the message. */
  private whose(field: keyof BudgetCaps, principal: string | undefined, environmentId: string | undefined): string {
    const rules = this.rules(principal, environmentId);
    const most = maximum(rules)[field];
    if (principal !== undefined && this.policy?.principals?.[principal]?.max?.[field] === most) return `for principal ${principal}`;
    if (environmentId !== undefined && this.policy?.environments?.[environmentId]?.max?.[field] === most) return `for environment ${environmentId}`;
    return 'for every run';
  }

  /** The rules that apply, most particular first: the principal's, the environment's, the top level's. */
  private rules(principal: string | undefined, environmentId: string | undefined): BudgetRule[] {
    const policy = this.policy;
    if (!policy) return [];
    return [
      ...(principal !== undefined && policy.principals?.[principal] ? [policy.principals[principal]] : []),
      ...(environmentId !== undefined && policy.environments?.[environmentId] ? [policy.environments[environmentId]] : []),
      policy,
    ];
  }
}

function maximum(rules: readonly BudgetRule[]): BudgetCaps {
  const max: BudgetCaps = {};
  for (const field of BUDGET_FIELDS) for (const rule of rules) max[field] = lower(max[field], rule.max?.[field]);
  return max;
}

function fallback(rules: readonly BudgetRule[]): BudgetCaps {
  const defaults: BudgetCaps = {};
  for (const field of BUDGET_FIELDS) defaults[field] = rules.find((rule) => rule.default?.[field] !== undefined)?.default?.[field];
  return defaults;
}

function lower(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
