import { z } from 'zod';

const CostUsdSchema = z.looseObject({
  input_cache_read_cost_usd: z.number(),
  input_cache_write_cost_usd: z.number(),
  input_cost_usd: z.number(),
  output_cost_usd: z.number(),
});

const TokenCountSchema = z.looseObject({
  input: z.number(),
  input_cache_read: z.number(),
  input_cache_write: z.number(),
  output: z.number(),
});

/** Inference through one provider or endpoint: cost and token counts. */
export const InferenceUsageSchema = z.looseObject({
  cost_usd: CostUsdSchema,
  token_count: TokenCountSchema,
  web_search_cost_usd: z.number(),
  web_search_count: z.number(),
});

export const UsageByCategorySchema = z.looseObject({
  platform_usage_usd: z.number(),
  byok_inference_usage: z.record(z.string(), InferenceUsageSchema).optional(),
  custom_endpoint_inference_usage: z.record(z.string(), InferenceUsageSchema).optional(),
  direct_api_inference_usage: z.record(z.string(), InferenceUsageSchema).optional(),
});

/** What a run used: credits, dollars, tokens. Every member optional; unknown ones kept. */
export const RequestUsageSchema = z
  .looseObject({
    inference_cost: z.number().optional(),
    compute_cost: z.number().optional(),
    platform_cost: z.number().optional(),
    inference_cost_usd: z.number().optional(),
    compute_cost_usd: z.number().optional(),
    platform_cost_usd: z.number().optional(),
    inference_cost_breakdown_usd: CostUsdSchema.optional(),
    total_tokens: z.number().optional(),
    usage_by_category: z.record(z.string(), UsageByCategorySchema).optional(),
  })
  .describe('Usage and cost of a run');

export type RequestUsage = z.infer<typeof RequestUsageSchema>;
