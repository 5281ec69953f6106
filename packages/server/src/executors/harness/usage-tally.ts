import type { RequestUsage } from '@agent-runs/core/contract';
import { modelPrice } from './model-prices.js';

/** Tokens of one model by kind, as the contract counts them. */
export type TokenCount = {
  input: number;
  input_cache_read: number;
  input_cache_write: number;
  output: number;
};

interface ModelTotals {
  tokens: TokenCount;
  /** The harness's own figure for this model, when it reports one. */
  costUsd?: number;
  webSearches: number;
}

/** Dollars of one model (or all) by kind of token, as the contract counts them. */
export type CostUsd = {
  input_cost_usd: number;
  output_cost_usd: number;
  input_cache_read_cost_usd: number;
  input_cache_write_cost_usd: number;
};

const zero = (): TokenCount => ({ input: 0, input_cache_read: 0, input_cache_write: 0, output: 0 });
const round = (usd: number) => Math.round(usd * 1e9) / 1e9;

/**
 * What a harness used, per model, as its stream reports it: counts per message while the
 * run goes (a message reported twice counts once), the harness's own totals at its end.
 * Renders into the contract's `request_usage`.
 */
export class UsageTally {
  private readonly byMessage = new Map<string, { model: string; tokens: TokenCount }>();
  private final: Map<string, ModelTotals> | undefined;
  private reportedTotalUsd: number | undefined;
  constructor(
    /** Usage of earlier executions of the run, added to this one's. */
    private readonly earlier?: RequestUsage | undefined,
    /**
     * The execution resumes the harness's session, whose end-of-turn totals count the whole
     * session (Claude Code's do): those totals are then the run's, with nothing added.
     */
    private readonly sessionTotals = false,
  ) {}

  /** The usage of one model response so far (the latest report of a message replaces the earlier). */
  message(messageId: string, model: string, tokens: TokenCount): void {
    this.byMessage.set(messageId, { model, tokens });
  }

  /** The harness's own totals at the end of its turn: they replace the per-message counts. */
  totals(byModel: Map<string, ModelTotals>, totalUsd?: number): void {
    this.final = byModel;
    this.reportedTotalUsd = totalUsd;
  }

  get empty(): boolean {
    return this.byMessage.size === 0 && this.final === undefined;
  }

  private perModel(): Map<string, ModelTotals> {
    if (this.final) return this.final;
    const models = new Map<string, ModelTotals>();
    for (const { model, tokens } of this.byMessage.values()) {
      const totals = models.get(model) ?? { tokens: zero(), webSearches: 0 };
      totals.tokens.input += tokens.input;
      totals.tokens.input_cache_read += tokens.input_cache_read;
      totals.tokens.input_cache_write += tokens.input_cache_write;
      totals.tokens.output += tokens.output;
      models.set(model, totals);
    }
    return models;
  }

  /** The run's `request_usage`: this execution's usage added to the earlier ones'. */
  toRequestUsage(): RequestUsage {
    const byModel: Record<string, Inference> = {};
    const breakdown: CostUsd = { input_cost_usd: 0, output_cost_usd: 0, input_cache_read_cost_usd: 0, input_cache_write_cost_usd: 0 };
    let listTotal = 0;
    let tokens = 0;
    for (const [model, totals] of this.perModel()) {
      const price = modelPrice(model);
      const t = totals.tokens;
      const cost: CostUsd = {
        input_cost_usd: price ? (t.input * price.input) / 1e6 : 0,
        output_cost_usd: price ? (t.output * price.output) / 1e6 : 0,
        input_cache_read_cost_usd: price ? (t.input_cache_read * price.cacheRead) / 1e6 : 0,
        input_cache_write_cost_usd: price ? (t.input_cache_write * price.cacheWrite) / 1e6 : 0,
      };
      for (const key of Object.keys(cost) as (keyof typeof cost)[]) breakdown[key] += cost[key];
      listTotal += totals.costUsd ?? cost.input_cost_usd + cost.output_cost_usd + cost.input_cache_read_cost_usd + cost.input_cache_write_cost_usd;
      tokens += t.input + t.output + t.input_cache_read + t.input_cache_write;
      byModel[model] = {
        cost_usd: addCost(undefined, cost),
        token_count: { ...t },
        web_search_cost_usd: 0,
        web_search_count: totals.webSearches,
      };
    }
    const mine: RequestUsage = {
      inference_cost_usd: round(this.reportedTotalUsd ?? listTotal),
      total_tokens: tokens,
      inference_cost_breakdown_usd: addCost(undefined, breakdown),
      usage_by_category: { primary_agent: { platform_usage_usd: 0, direct_api_inference_usage: byModel } },
    };
    if (this.final && this.sessionTotals) return mine;
    return this.earlier ? addUsage(this.earlier, mine) : mine;
  }
}

type Inference = {
  cost_usd: CostUsd;
  token_count: TokenCount;
  web_search_cost_usd: number;
  web_search_count: number;
};

function addCost(a: CostUsd | undefined, b: CostUsd): CostUsd {
  return {
    input_cost_usd: round((a?.input_cost_usd ?? 0) + b.input_cost_usd),
    output_cost_usd: round((a?.output_cost_usd ?? 0) + b.output_cost_usd),
    input_cache_read_cost_usd: round((a?.input_cache_read_cost_usd ?? 0) + b.input_cache_read_cost_usd),
    input_cache_write_cost_usd: round((a?.input_cache_write_cost_usd ?? 0) + b.input_cache_write_cost_usd),
  };
}

function addTokens(a: TokenCount, b: TokenCount): TokenCount {
  return { input: a.input + b.input, output: a.output + b.output, input_cache_read: a.input_cache_read + b.input_cache_read, input_cache_write: a.input_cache_write + b.input_cache_write };
}

/** Two executions' usage as one: sums by kind and by model. */
export function addUsage(a: RequestUsage, b: RequestUsage): RequestUsage {
  const aModels = (a.usage_by_category?.['primary_agent']?.direct_api_inference_usage ?? {}) as Record<string, Inference>;
  const bModels = (b.usage_by_category?.['primary_agent']?.direct_api_inference_usage ?? {}) as Record<string, Inference>;
  const models: Record<string, Inference> = { ...aModels };
  for (const [model, usage] of Object.entries(bModels)) {
    const before = aModels[model];
    models[model] = before
      ? {
          cost_usd: addCost(before.cost_usd, usage.cost_usd),
          token_count: addTokens(before.token_count, usage.token_count),
          web_search_cost_usd: before.web_search_cost_usd + usage.web_search_cost_usd,
          web_search_count: before.web_search_count + usage.web_search_count,
        }
      : usage;
  }
  return {
    inference_cost_usd: round((a.inference_cost_usd ?? 0) + (b.inference_cost_usd ?? 0)),
    total_tokens: (a.total_tokens ?? 0) + (b.total_tokens ?? 0),
    ...(b.inference_cost_breakdown_usd ? { inference_cost_breakdown_usd: addCost(a.inference_cost_breakdown_usd as CostUsd | undefined, b.inference_cost_breakdown_usd as CostUsd) } : {}),
    usage_by_category: { primary_agent: { platform_usage_usd: 0, direct_api_inference_usage: models } },
  };
}
