/** USD per one million input and output tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/**
 * The cost of some token counts at a price, in USD, or `null` when it is unknown: no price, or a
 * count the price depends on was not reported. A free side (price 0) costs 0 whatever its count.
 * Never 0 for "don't know".
 *
 * @example
 * costOf({ inputTokens: 2000, outputTokens: 500 }, { input: 0.25, output: 2 }) // 0.0015
 * costOf({ inputTokens: undefined, outputTokens: 5 }, { input: 1, output: 2 }) // null
 */
export function costOf(
  usage: { inputTokens: number | undefined; outputTokens: number | undefined },
  price: ModelPrice | null | undefined,
): number | null {
  if (!price) return null;
  const input = sideCost(usage.inputTokens, price.input);
  const output = sideCost(usage.outputTokens, price.output);
  return input === null || output === null ? null : (input + output) / 1_000_000;
}

function sideCost(tokens: number | undefined, pricePerMillion: number): number | null {
  if (pricePerMillion === 0) return 0;
  return tokens === undefined ? null : tokens * pricePerMillion;
}
