/** USD per one million input and output tokens, and per web search of the provider's hosted tool. */
export interface ModelPrice {
  input: number;
  output: number;
  /** USD per web search (`web_search` call); absent: the fee is unknown, so a run that searched the web has cost `null`. */
  webSearch?: number;
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

/**
 * The fee of `searches` provider-hosted web searches at a price, in USD: 0 for no search, `null`
 * when a search was made and the price has no `webSearch` fee (unknown, never 0).
 *
 * @example
 * webSearchCost(2, { input: 0.25, output: 2, webSearch: 0.01 }) // 0.02
 * webSearchCost(1, { input: 0.25, output: 2 }) // null
 */
export function webSearchCost(searches: number, price: ModelPrice | null | undefined): number | null {
  if (searches === 0) return 0;
  return price?.webSearch === undefined ? null : searches * price.webSearch;
}
