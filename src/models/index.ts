/**
 * Model layer: "provider:model" specs to AI SDK models, token usage and cost.
 *
 * @example
 * import { resolveModel, costUsd, loadPriceOverrides } from './models/index.ts';
 * const { model, spec } = resolveModel('openai:gpt-5-mini', { env: process.env });
 * const cost = costUsd(spec, { inputTokens: 1200, outputTokens: 300 }, loadPriceOverrides(process.env));
 */
export { MODEL_SPEC_FORMS, parseModelSpec, type ModelSpec } from './model-spec.ts';
export { DEFAULT_PRICES, WEB_SEARCH_FEES, costUsd, findPrice, loadPriceOverrides, type ModelPrice, type PriceTable } from './pricing.ts';
export { defaultModelSpec, KEY_MODELS } from '../provider-env.ts';
export { pickDefaultModel, type DefaultModelChoice, type PickDefaultModelOptions } from './default-model.ts';
export { findOllamaToolModel, OLLAMA_PROBE_TIMEOUT_MS, type OllamaProbe } from './ollama-probe.ts';
export { resolveModel, type ModelEnv, type ResolvedModel, type ResolveModelOptions } from './resolve-model.ts';
export { NO_USAGE, addUsage, type TokenUsage } from './usage.ts';
export { createWebSearch, WEB_SEARCH_MODELS } from './web-tools.ts';
