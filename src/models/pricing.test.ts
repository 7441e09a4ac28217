import { describe, expect, it } from 'vitest';
import { AtlasError } from '../errors.ts';
import { costUsd, DEFAULT_PRICES, findPrice, loadPriceOverrides } from './pricing.ts';

describe('costUsd', () => {
  it('prices input and output tokens per million', () => {
    expect(costUsd('openai:gpt-5-mini', { inputTokens: 2000, outputTokens: 500 }, DEFAULT_PRICES)).toBe(0.0015);
    expect(costUsd('anthropic:claude-sonnet-4-5', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(18);
  });

  it('returns null, never 0, for a model without a price', () => {
    expect(costUsd('openai:gpt-9-ultra', { inputTokens: 10, outputTokens: 10 }, DEFAULT_PRICES)).toBeNull();
    expect(costUsd('openai-compatible:http://localhost:8000/v1#qwen3', { inputTokens: 10, outputTokens: 10 })).toBeNull();
  });

  it('returns null when a priced token count was not reported', () => {
    expect(costUsd('openai:gpt-5', { inputTokens: 100, outputTokens: undefined })).toBeNull();
    expect(costUsd('openai:gpt-5', { inputTokens: undefined, outputTokens: undefined })).toBeNull();
  });

  it('prices the offline planner and local Ollama models at exactly 0, counts or not', () => {
    expect(costUsd('offline', { inputTokens: 5000, outputTokens: 700 })).toBe(0);
    expect(costUsd('offline', { inputTokens: undefined, outputTokens: undefined })).toBe(0);
    expect(costUsd('ollama:qwen3:8b', { inputTokens: 5000, outputTokens: 700 })).toBe(0);
  });
});

describe('findPrice', () => {
  it('prices a dated snapshot like its alias, in both date styles', () => {
    expect(findPrice('anthropic:claude-haiku-4-5-20251001', DEFAULT_PRICES)).toEqual({ input: 1, output: 5, webSearch: 0.01 });
    expect(findPrice('openai:gpt-5-mini-2025-08-07', DEFAULT_PRICES)).toEqual({ input: 0.25, output: 2, webSearch: 0.01 });
  });

  it('does not confuse a model with a longer-named sibling', () => {
    expect(findPrice('openai:gpt-5', DEFAULT_PRICES)).toEqual({ input: 1.25, output: 10, webSearch: 0.01 });
    expect(findPrice('openai:gpt-5-pro', DEFAULT_PRICES)).toBeUndefined();
  });
});

describe('loadPriceOverrides', () => {
  it('returns the defaults when ATLAS_PRICES is unset or blank', () => {
    expect(loadPriceOverrides({})).toBe(DEFAULT_PRICES);
    expect(loadPriceOverrides({ ATLAS_PRICES: '  ' })).toBe(DEFAULT_PRICES);
  });

  it('merges ATLAS_PRICES over the defaults, adding and replacing entries', () => {
    const table = loadPriceOverrides({
      ATLAS_PRICES: '{"openai:gpt-5-mini":{"input":0.2,"output":1.5},"openai-compatible:http://gpu:8000/v1#qwen3":{"input":0,"output":0}}',
    });
    // An override without webSearch keeps the default's per-search fee; a new entry has none.
    expect(table['openai:gpt-5-mini']).toEqual({ input: 0.2, output: 1.5, webSearch: 0.01 });
    expect(table['openai:gpt-5']).toEqual({ input: 1.25, output: 10, webSearch: 0.01 });
    expect(table['openai-compatible:http://gpu:8000/v1#qwen3']).toEqual({ input: 0, output: 0 });
    expect(costUsd('openai-compatible:http://gpu:8000/v1#qwen3', { inputTokens: 9, outputTokens: 9 }, table)).toBe(0);
    expect(DEFAULT_PRICES['openai:gpt-5-mini']).toEqual({ input: 0.25, output: 2, webSearch: 0.01 });
  });

  it('overrides the per-search web fee with webSearch', () => {
    const table = loadPriceOverrides({ ATLAS_PRICES: '{"anthropic:claude-haiku-4-5":{"input":1,"output":5,"webSearch":0.025}}' });
    expect(table['anthropic:claude-haiku-4-5']).toEqual({ input: 1, output: 5, webSearch: 0.025 });
    expect(() => loadPriceOverrides({ ATLAS_PRICES: '{"openai:gpt-5":{"input":1,"output":1,"webSearch":-1}}' })).toThrow(
      'Atlas: ATLAS_PRICES is invalid: "openai:gpt-5"."webSearch": Too small: expected number to be >=0.',
    );
  });

  it('names the variable when the JSON does not parse', () => {
    const attempt = () => loadPriceOverrides({ ATLAS_PRICES: '{openai:1}' });
    expect(attempt).toThrow(AtlasError);
    expect(attempt).toThrow(/^Atlas: ATLAS_PRICES is not valid JSON \(.+\)\. Expected e\.g\. \{"openai:gpt-5-mini":\{"input":0\.25,"output":2,"webSearch":0\.01\}\} \(USD per 1M tokens; webSearch, optional: USD per web search\)\.$/);
  });

  it('names the variable, the model and the field when the shape is wrong', () => {
    const attempt = () => loadPriceOverrides({ ATLAS_PRICES: '{"openai:gpt-5-mini":{"input":"cheap","output":2,"cached":1}}' });
    expect(attempt).toThrow(
      'Atlas: ATLAS_PRICES is invalid: "openai:gpt-5-mini"."input": Invalid input: expected number, received string; "openai:gpt-5-mini": Unrecognized key: "cached". Expected e.g. {"openai:gpt-5-mini":{"input":0.25,"output":2,"webSearch":0.01}} (USD per 1M tokens; webSearch, optional: USD per web search).',
    );
    expect(() => loadPriceOverrides({ ATLAS_PRICES: '[1]' })).toThrow(
      'Atlas: ATLAS_PRICES is invalid: (top level): Invalid input: expected record, received array.',
    );
    expect(() => loadPriceOverrides({ ATLAS_PRICES: '{"x":{"input":-1,"output":0}}' })).toThrow(
      'Atlas: ATLAS_PRICES is invalid: "x"."input": Too small: expected number to be >=0.',
    );
  });

  it('reports the error with code model-config', () => {
    try {
      loadPriceOverrides({ ATLAS_PRICES: 'nope' });
      expect.unreachable();
    } catch (error) {
      expect((error as AtlasError).code).toBe('model-config');
    }
  });
});
