import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { AtlasError } from '../errors.ts';
import { parseModelSpec } from './model-spec.ts';
import { DEFAULT_BASE_URLS, nonEmptyEnv, optionalBaseUrl, type ModelEnv } from '../provider-env.ts';

export type { ModelEnv } from '../provider-env.ts';

/** A model spec turned into an AI SDK model, with the parts of the spec it came from. */
export interface ResolvedModel {
  /** A `LanguageModelV3`, usable wherever the AI SDK takes a `LanguageModel`. */
  model: LanguageModelV3;
  /** The spec as given, e.g. `openai:gpt-5-mini`; also the key of the price table. */
  spec: string;
  /** `openai`, `anthropic`, `ollama`, `openai-compatible` or `offline`. */
  provider: string;
  modelId: string;
}

/** Options of {@link resolveModel}. */
export interface ResolveModelOptions {
  /** Where keys and base URLs are read from; never `process.env` implicitly. */
  env: ModelEnv;
  /** Passed to the provider client (tests point it at a loopback server or record calls). */
  fetch?: typeof fetch;
  /** Builds the offline planner model; the caller wires it, so `models/` does not import `agent/`. */
  offline?: () => LanguageModelV3;
}


/**
 * Resolves a model spec to an AI SDK model. Keys and base URLs come from `options.env`:
 * `OPENAI_API_KEY`/`OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`/`ANTHROPIC_BASE_URL`, `OLLAMA_BASE_URL`
 * (default `http://localhost:11434/v1`), `OPENAI_COMPATIBLE_API_KEY` (optional).
 * OpenAI models use the Responses API; Ollama and `openai-compatible` use Chat Completions with
 * JSON-schema structured outputs.
 *
 * @example
 * const { model } = resolveModel('openai:gpt-5-mini', { env: process.env });
 * const offline = resolveModel('offline', { env: {}, offline: () => createOfflinePlanner(...) });
 */
export function resolveModel(spec: string, options: ResolveModelOptions): ResolvedModel {
  const parsed = parseModelSpec(spec);
  const { env, fetch } = options;
  const resolved = (model: LanguageModelV3): ResolvedModel => ({ model, spec, provider: parsed.provider, modelId: parsed.modelId });

  switch (parsed.provider) {
    case 'offline': {
      if (options.offline === undefined) {
        throw new AtlasError(
          'internal',
          'Atlas: model "offline" was requested but resolveModel got no offline planner. The caller wires it: pass options.offline (a function returning the offline planner model).',
        );
      }
      return resolved(options.offline());
    }
    case 'openai': {
      const apiKey = requireKey(env, 'OPENAI_API_KEY', spec);
      const baseURL = optionalBaseUrl(env, 'OPENAI_BASE_URL') ?? DEFAULT_BASE_URLS.openai;
      return resolved(createOpenAI({ apiKey, baseURL, fetch }).responses(parsed.modelId));
    }
    case 'anthropic': {
      const apiKey = requireKey(env, 'ANTHROPIC_API_KEY', spec);
      const baseURL = optionalBaseUrl(env, 'ANTHROPIC_BASE_URL') ?? DEFAULT_BASE_URLS.anthropic;
      return resolved(createAnthropic({ apiKey, baseURL, fetch }).messages(parsed.modelId));
    }
    case 'ollama': {
      const baseURL = optionalBaseUrl(env, 'OLLAMA_BASE_URL') ?? DEFAULT_BASE_URLS.ollama;
      const provider = createOpenAICompatible({ name: 'ollama', baseURL, fetch, supportsStructuredOutputs: true });
      return resolved(provider.chatModel(parsed.modelId));
    }
    case 'openai-compatible': {
      const apiKey = nonEmptyEnv(env.OPENAI_COMPATIBLE_API_KEY);
      const provider = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: parsed.baseURL,
        fetch,
        supportsStructuredOutputs: true,
        ...(apiKey === undefined ? {} : { apiKey }),
      });
      return resolved(provider.chatModel(parsed.modelId));
    }
  }
}


function requireKey(env: ModelEnv, name: string, spec: string): string {
  const key = nonEmptyEnv(env[name]);
  if (key === undefined) {
    throw new AtlasError(
      'model-config',
      `Atlas: ${name} is not set, needed for model "${spec}". Set it, or use --model offline (no key needed).`,
    );
  }
  return key;
}


