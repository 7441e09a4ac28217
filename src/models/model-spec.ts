import { AtlasError } from '../errors.ts';
import { isHttpUrl } from '../provider-env.ts';

/** A model spec string taken apart; see {@link parseModelSpec}. */
export type ModelSpec =
  | { provider: 'offline'; modelId: 'offline' }
  | { provider: 'openai' | 'anthropic' | 'ollama'; modelId: string }
  | { provider: 'openai-compatible'; modelId: string; baseURL: string };

/** The spec forms Atlas accepts, as listed in error messages and help text. */
export const MODEL_SPEC_FORMS =
  'offline, openai:<model>, anthropic:<model>, ollama:<model>, openai-compatible:<baseURL>#<model>';

/**
 * Parses a model spec (`offline`, `openai:<model>`, `anthropic:<model>`, `ollama:<model>`,
 * `openai-compatible:<baseURL>#<model>`). Throws `AtlasError('usage')` naming the spec otherwise.
 *
 * @example
 * parseModelSpec('openai-compatible:http://localhost:8000/v1#qwen3')
 * // { provider: 'openai-compatible', baseURL: 'http://localhost:8000/v1', modelId: 'qwen3' }
 */
export function parseModelSpec(spec: string): ModelSpec {
  if (spec === 'offline') return { provider: 'offline', modelId: 'offline' };
  const colon = spec.indexOf(':');
  const provider = colon === -1 ? '' : spec.slice(0, colon);
  const rest = spec.slice(colon + 1);
  switch (provider) {
    case 'openai':
    case 'anthropic':
    case 'ollama':
      if (!isModelId(rest)) throw badSpec(spec, `the model id after "${provider}:" is missing or contains spaces`);
      return { provider, modelId: rest };
    case 'openai-compatible':
      return parseCompatible(spec, rest);
    default:
      throw badSpec(spec, colon === -1 ? 'it has no provider prefix' : `"${provider}" is not a known provider`);
  }
}

function parseCompatible(spec: string, rest: string): ModelSpec {
  const hash = rest.lastIndexOf('#');
  if (hash === -1) throw badSpec(spec, 'openai-compatible needs "<baseURL>#<model>"');
  const baseURL = rest.slice(0, hash);
  const modelId = rest.slice(hash + 1);
  if (!isHttpUrl(baseURL)) throw badSpec(spec, `"${baseURL}" is not an http(s) URL`);
  if (!isModelId(modelId)) throw badSpec(spec, 'the model id after "#" is missing or contains spaces');
  return { provider: 'openai-compatible', modelId, baseURL };
}

function isModelId(value: string): boolean {
  return value.length > 0 && !/\s/.test(value);
}


function badSpec(spec: string, reason: string): AtlasError {
  return new AtlasError(
    'usage',
    `Atlas: invalid model "${spec}": ${reason}. Use one of: ${MODEL_SPEC_FORMS} (e.g. openai:gpt-5-mini, or offline for no key).`,
  );
}
