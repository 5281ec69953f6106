/** Dollars per million tokens of one model, by kind of token. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

// Public list prices; a harness's own reported total, where it gives one, wins over these.
const PRICES: readonly [RegExp, ModelPrice][] = [
  [/^claude-(opus-4-[5-9]|opus-4\.[5-9])/, { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }],
  [/^claude-opus/, { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }],
  [/^claude-(sonnet|3-7-sonnet|3-5-sonnet)/, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }],
  [/^claude-(haiku-4|3-5-haiku)/, { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }],
  [/^gpt-5(\.\d+)?-codex-mini|^gpt-5(\.\d+)?-mini/, { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 }],
  [/^gpt-5/, { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }],
  [/^gemini-3(\.\d+)?-pro/, { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 }],
  [/^gemini-3(\.\d+)?-flash-preview/, { input: 0.5, output: 3, cacheRead: 0.05, cacheWrite: 0 }],
  [/^gemini-[\d.]+-pro/, { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }],
  [/^gemini-[\d.]+-flash-lite/, { input: 0.1, output: 0.4, cacheRead: 0.01, cacheWrite: 0 }],
  [/^gemini-[\d.]+-flash/, { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 }],
];

/** The list price of a model, when it is one we know. */
export function modelPrice(modelId: string): ModelPrice | undefined {
  return PRICES.find(([pattern]) => pattern.test(modelId))?.[1];
}
