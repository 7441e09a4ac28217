// What the provider resolvers (models and embedders) read from the environment they are given.
import { AtlasError } from './errors.ts';

/** Environment variables as passed in by the caller (the CLI passes `process.env`). */
export type ModelEnv = Record<string, string | undefined>;

/** True for an absolute `http:` or `https:` URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Default base URLs, passed explicitly so the provider packages never read `process.env` themselves. */
export const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  ollama: 'http://localhost:11434/v1',
  cohere: 'https://api.cohere.com/v2',
  together: 'https://api.together.xyz/v1',
} as const;

/**
 * The base URL variable `name` of `env`, trimmed; undefined when unset or blank; an AtlasError
 * naming the variable when it is not an http(s) URL.
 *
 * @example
 * optionalBaseUrl({ OLLAMA_BASE_URL: 'http://gpu:11434/v1' }, 'OLLAMA_BASE_URL') ?? DEFAULT_BASE_URLS.ollama;
 */
export function optionalBaseUrl(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = nonEmptyEnv(env[name]);
  if (value !== undefined && !isHttpUrl(value)) {
    throw new AtlasError('model-config', `Atlas: ${name} is not an http(s) URL: "${value}". Fix it, or unset it to use the default.`);
  }
  return value;
}

/**
 * An environment value trimmed, or undefined when unset or blank.
 *
 * @example
 * nonEmptyEnv('  sk-test '); // 'sk-test'
 */
export function nonEmptyEnv(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The model Atlas picks for each provider key when no model is named, in order of preference: a
 * small, cheap model of that provider (both are in the price table, models/pricing.ts).
 */
export const KEY_MODELS = Object.freeze([
  { variable: 'OPENAI_API_KEY', spec: 'openai:gpt-5-mini' },
  { variable: 'ANTHROPIC_API_KEY', spec: 'anthropic:claude-haiku-4-5' },
] as const);

/** An entry of {@link KEY_MODELS}: a key variable and the model picked for it. */
export type KeyModel = (typeof KEY_MODELS)[number];

/**
 * The first entry of {@link KEY_MODELS} whose key is set (not blank) in `env`, or undefined.
 *
 * @example
 * keyModel({ ANTHROPIC_API_KEY: 'sk-ant-...' }) // { variable: 'ANTHROPIC_API_KEY', spec: 'anthropic:claude-haiku-4-5' }
 * keyModel({}) // undefined
 */
export function keyModel(env: ModelEnv): KeyModel | undefined {
  return KEY_MODELS.find((entry) => nonEmptyEnv(env[entry.variable]) !== undefined);
}

/**
 * The model spec to use when none is given on the command line, from the environment alone (no
 * network): `ATLAS_MODEL` when set, else the model of the first provider key set
 * ({@link KEY_MODELS}), else `offline` (no key, no network). `pickDefaultModel`
 * (models/default-model.ts) also asks a local Ollama before settling on `offline`.
 *
 * @example
 * defaultModelSpec({ ATLAS_MODEL: 'anthropic:claude-haiku-4-5', OPENAI_API_KEY: 'sk-...' }) // 'anthropic:claude-haiku-4-5'
 * defaultModelSpec({ OPENAI_API_KEY: 'sk-...' }) // 'openai:gpt-5-mini'
 * defaultModelSpec({}) // 'offline'
 */
export function defaultModelSpec(env: ModelEnv): string {
  return nonEmptyEnv(env.ATLAS_MODEL) ?? keyModel(env)?.spec ?? 'offline';
}
