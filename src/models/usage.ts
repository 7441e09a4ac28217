/**
 * Token counts as the AI SDK reports them (`LanguageModelUsage` fits): a count is `undefined`
 * when the provider did not report it.
 */
export interface TokenUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/** Nothing used yet; the start value for summing with {@link addUsage}. */
export const NO_USAGE: Readonly<TokenUsage> = Object.freeze({ inputTokens: undefined, outputTokens: undefined });

/**
 * Sums two usages count by count. A count stays `undefined` only when both sides lack it;
 * otherwise a missing side counts as 0 (the same rule the AI SDK uses for its step totals).
 *
 * @example
 * addUsage({ inputTokens: 10, outputTokens: undefined }, { inputTokens: 5, outputTokens: 3 })
 * // { inputTokens: 15, outputTokens: 3 }
 */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: addCounts(a.inputTokens, b.inputTokens),
    outputTokens: addCounts(a.outputTokens, b.outputTokens),
  };
}

function addCounts(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}
