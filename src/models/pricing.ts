import { z } from 'zod';
import { AtlasError } from '../errors.ts';
import type { ModelEnv } from './resolve-model.ts';
import { costOf, type ModelPrice } from '../agent/cost.ts';
import type { TokenUsage } from './usage.ts';

export type { ModelPrice };

/**
 * Prices by model key: the model spec (`openai:gpt-5-mini`), or `<provider>:*` for every model
 * of a provider.
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * USD per provider-hosted web search: $10 per 1,000 calls of OpenAI's `web_search` tool (OpenAI
 * API pricing page, "Built-in tools", as read 2026-03-12) and $10 per 1,000 searches of
 * Anthropic's web search tool (Anthropic pricing page / web search tool docs, as read 2026-03).
 * The search content the provider feeds the model is billed as input tokens and is already in
 * the reported token counts. Not modelled: OpenAI's `web_search_preview` rate for non-reasoning
 * models ($25 per 1,000) and the fixed 8,000-token block of gpt-4o-mini / gpt-4.1-mini searches.
 */
export const WEB_SEARCH_FEES = Object.freeze({ openai: 0.01, anthropic: 0.01 });

/**
 * Standard-tier list prices, USD per 1M tokens, taken 2026-11-30 from copies of the OpenAI and
 * Anthropic pricing pages dated March 2026, with each provider's web search fee
 * ({@link WEB_SEARCH_FEES}). Not modelled: cached-input and batch discounts, Anthropic's
 * long-context (>200K input) rates. Override or extend with `ATLAS_PRICES`.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  // The offline planner runs in process: it genuinely costs nothing.
  offline: { input: 0, output: 0 },
  // Ollama runs on your own machine: no per-token fee.
  'ollama:*': { input: 0, output: 0 },
  'openai:gpt-5': { input: 1.25, output: 10, webSearch: WEB_SEARCH_FEES.openai },
  'openai:gpt-5-mini': { input: 0.25, output: 2, webSearch: WEB_SEARCH_FEES.openai },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4, webSearch: WEB_SEARCH_FEES.openai },
  'openai:gpt-4.1': { input: 2, output: 8, webSearch: WEB_SEARCH_FEES.openai },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6, webSearch: WEB_SEARCH_FEES.openai },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4, webSearch: WEB_SEARCH_FEES.openai },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6, webSearch: WEB_SEARCH_FEES.openai },
  'anthropic:claude-opus-4-5': { input: 5, output: 25, webSearch: WEB_SEARCH_FEES.anthropic },
  'anthropic:claude-sonnet-4-5': { input: 3, output: 15, webSearch: WEB_SEARCH_FEES.anthropic },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5, webSearch: WEB_SEARCH_FEES.anthropic },
});

/** A dated snapshot suffix: `-2025-08-07` (OpenAI) or `-20251001` (Anthropic). */
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * Finds the price of a model: the exact key, else the key without a dated snapshot suffix
 * (`anthropic:claude-haiku-4-5-20251001` is priced as `anthropic:claude-haiku-4-5`), else
 * the `<provider>:*` entry.
 *
 * @example
 * findPrice('openai:gpt-5-mini-2025-08-07', DEFAULT_PRICES) // { input: 0.25, output: 2 }
 */
export function findPrice(modelKey: string, table: PriceTable): ModelPrice | undefined {
  const exact = table[modelKey];
  if (exact !== undefined) return exact;
  const undated = modelKey.replace(SNAPSHOT_SUFFIX, '');
  if (undated !== modelKey && table[undated] !== undefined) return table[undated];
  const colon = modelKey.indexOf(':');
  return colon === -1 ? undefined : table[`${modelKey.slice(0, colon)}:*`];
}

/**
 * The cost of `usage` in USD, or `null` when it is unknown: the model has no price, or a token
 * count the price depends on was not reported. Never 0 for "don't know".
 *
 * @example
 * costUsd('openai:gpt-5-mini', { inputTokens: 2000, outputTokens: 500 }, DEFAULT_PRICES) // 0.0015
 * costUsd('openai:some-new-model', { inputTokens: 1, outputTokens: 1 }, DEFAULT_PRICES) // null
 */
export function costUsd(modelKey: string, usage: TokenUsage, table: PriceTable = DEFAULT_PRICES): number | null {
  return costOf(usage, findPrice(modelKey, table));
}

const priceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** USD per web search; an override without it keeps the default entry's fee. */
  webSearch: z.number().nonnegative().optional(),
});
const overridesSchema = z.record(z.string().min(1), priceSchema);

const OVERRIDES_EXAMPLE = '{"openai:gpt-5-mini":{"input":0.25,"output":2,"webSearch":0.01}} (USD per 1M tokens; webSearch, optional: USD per web search)';

/**
 * The price table to use: {@link DEFAULT_PRICES} (or `base`) with the entries of the
 * `ATLAS_PRICES` JSON merged over it (an entry without `webSearch` keeps the base entry's fee). Throws `AtlasError('model-config')` naming the variable
 * when it is not valid JSON or not `{ "<model>": { "input": n, "output": n } }`.
 *
 * @example
 * loadPriceOverrides({ ATLAS_PRICES: '{"openai:gpt-5-mini":{"input":0.2,"output":1.6}}' })['openai:gpt-5-mini']
 * // { input: 0.2, output: 1.6 }
 */
export function loadPriceOverrides(env: ModelEnv, base: PriceTable = DEFAULT_PRICES): PriceTable {
  const raw = env.ATLAS_PRICES?.trim();
  if (raw === undefined || raw === '') return base;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AtlasError('model-config', `Atlas: ATLAS_PRICES is not valid JSON (${reason}). Expected e.g. ${OVERRIDES_EXAMPLE}.`);
  }
  const parsed = overridesSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
    throw new AtlasError('model-config', `Atlas: ATLAS_PRICES is invalid: ${problems}. Expected e.g. ${OVERRIDES_EXAMPLE}.`);
  }
  const merged: Record<string, ModelPrice> = { ...base };
  for (const [key, price] of Object.entries(parsed.data)) {
    const webSearch = price.webSearch ?? base[key]?.webSearch;
    merged[key] = { input: price.input, output: price.output, ...(webSearch === undefined ? {} : { webSearch }) };
  }
  return Object.freeze(merged);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(top level)' : path.map((part) => (typeof part === 'number' ? `[${part}]` : JSON.stringify(String(part)))).join('.');
}
