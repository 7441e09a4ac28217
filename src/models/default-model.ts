import { keyModel, nonEmptyEnv, type ModelEnv } from '../provider-env.ts';
import { findOllamaToolModel, type OllamaProbeOptions } from './ollama-probe.ts';

/**
 * The model to use when none is named, and where it came from: `ATLAS_MODEL`, a provider key
 * (`variable`), a local Ollama model that calls tools (`server`), or the offline planner (`ollama`
 * says why no Ollama model was taken; absent when no Ollama was asked).
 */
export type DefaultModelChoice =
  | { source: 'ATLAS_MODEL'; spec: string }
  | { source: 'key'; spec: string; variable: string }
  | { source: 'ollama'; spec: string; server: string }
  | { source: 'offline'; spec: 'offline'; ollama?: string };

/** Options of {@link pickDefaultModel}. */
export interface PickDefaultModelOptions extends Omit<OllamaProbeOptions, 'fetch'> {
  /** Asks a local Ollama with it (`OLLAMA_BASE_URL`, default `http://localhost:11434`); without it no Ollama is asked. */
  fetch?: typeof fetch;
}

/**
 * Picks the model of a run that names none: `ATLAS_MODEL` when set; else the small model of the
 * first provider whose key is set (`OPENAI_API_KEY`: `openai:gpt-5-mini`, then
 * `ANTHROPIC_API_KEY`: `anthropic:claude-haiku-4-5`; no network); else, given a `fetch`, the first
 * local model of the Ollama at `OLLAMA_BASE_URL` that calls tools (asked within 500 ms); else the
 * offline planner.
 *
 * @example
 * await pickDefaultModel({ env: { OPENAI_API_KEY: 'sk-...' } }) // { source: 'key', spec: 'openai:gpt-5-mini', variable: 'OPENAI_API_KEY' }
 * await pickDefaultModel({ env: {}, fetch }) // { source: 'ollama', spec: 'ollama:qwen3:8b', server: 'http://localhost:11434' }, with such an Ollama
 */
export async function pickDefaultModel(options: PickDefaultModelOptions): Promise<DefaultModelChoice> {
  const configured = nonEmptyEnv(options.env.ATLAS_MODEL);
  if (configured !== undefined) return { source: 'ATLAS_MODEL', spec: configured };
  const key = keyModel(options.env);
  if (key !== undefined) return { source: 'key', spec: key.spec, variable: key.variable };
  if (options.fetch === undefined) return { source: 'offline', spec: 'offline' };
  const probe = await findOllamaToolModel({ ...options, fetch: options.fetch });
  return probe.found
    ? { source: 'ollama', spec: `ollama:${probe.model}`, server: probe.server }
    : { source: 'offline', spec: 'offline', ollama: probe.reason };
}
