// Finds a model of a local Ollama that calls tools, through Ollama's native API: `GET /api/tags`
// lists the models pulled (most recently changed first), `POST /api/show { model }` reports a
// model's `capabilities` ("tools" for one that calls tools; Ollamas older than that field report
// none). Only the server of OLLAMA_BASE_URL (default localhost) is asked, redirects are refused,
// and the whole probe has one short time budget.
import { z } from 'zod';
import { DEFAULT_BASE_URLS, optionalBaseUrl, type ModelEnv } from '../provider-env.ts';

/** How long the whole probe (the list and the details of every model) may take, in ms. */
export const OLLAMA_PROBE_TIMEOUT_MS = 500;

/** How many models of the list (the most recently changed) are asked about. */
const MAX_MODELS_ASKED = 16;

/** How many model names a reason lists. */
const NAMES_SHOWN = 3;

/** Options of {@link findOllamaToolModel}. */
export interface OllamaProbeOptions {
  /** Where `OLLAMA_BASE_URL` is read from (default server `http://localhost:11434`). */
  env: ModelEnv;
  fetch: typeof fetch;
  /** The budget of the whole probe, ms (default {@link OLLAMA_PROBE_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Makes the signal that aborts after `timeoutMs` (default `AbortSignal.timeout`); tests inject their own. */
  timeoutSignal?: (ms: number) => AbortSignal;
}

/** What the probe found: a model that calls tools, or why there is none (words for a line on stderr). */
export type OllamaProbe = { found: true; server: string; model: string } | { found: false; server: string; reason: string };

// The fields Atlas reads; the rest of Ollama's answers is ignored. A model pulled from Ollama's
// cloud is listed with `remote_host` / `remote_model`: it runs on ollama.com, not here.
const tagsSchema = z.object({
  models: z
    .array(z.object({ name: z.string().min(1), remote_host: z.string().nullish(), remote_model: z.string().nullish() }))
    .nullable(),
});
const showSchema = z.object({ capabilities: z.array(z.string()).nullish() });

/**
 * The root of Ollama's native API: `OLLAMA_BASE_URL` (the OpenAI-compatible root that
 * `ollama:<model>` uses, e.g. `http://gpu:11434/v1`) without its `/v1`, else `http://localhost:11434`.
 *
 * @example
 * ollamaServer({ OLLAMA_BASE_URL: 'http://gpu:11434/v1' }) // 'http://gpu:11434'
 */
export function ollamaServer(env: ModelEnv): string {
  const base = optionalBaseUrl(env, 'OLLAMA_BASE_URL') ?? DEFAULT_BASE_URLS.ollama;
  return base.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * Asks the Ollama at {@link ollamaServer} for its first local model that calls tools (in the order
 * `/api/tags` lists them). Never throws for what the server does (no answer, an error status, an
 * answer that is not Ollama's, the time budget spent): that is `{ found: false, reason }`.
 *
 * @example
 * const probe = await findOllamaToolModel({ env: process.env, fetch });
 * if (probe.found) console.log(`ollama:${probe.model}`); // 'ollama:qwen3:8b'
 */
export async function findOllamaToolModel(options: OllamaProbeOptions): Promise<OllamaProbe> {
  const server = ollamaServer(options.env);
  const timeoutMs = options.timeoutMs ?? OLLAMA_PROBE_TIMEOUT_MS;
  const signal = (options.timeoutSignal ?? AbortSignal.timeout)(timeoutMs);
  const request = (path: string, init: RequestInit = {}) => options.fetch(`${server}${path}`, { ...init, signal, redirect: 'error' });
  const notFound = (reason: string): OllamaProbe => ({ found: false, server, reason });
  const late = () => (signal.aborted ? ` within ${timeoutMs} ms` : '');

  let response: Response;
  let body: unknown;
  try {
    response = await request('/api/tags');
    body = await response.json().catch((error: unknown) => (signal.aborted ? Promise.reject(error) : undefined));
  } catch {
    return notFound(`no Ollama answered at ${server}${late()}`);
  }
  const tags = tagsSchema.safeParse(body);
  if (!response.ok || !tags.success) return notFound(`${server} did not answer GET /api/tags as Ollama does (HTTP ${response.status})`);

  const names = (tags.data.models ?? []).filter((model) => !model.remote_host && !model.remote_model).map((model) => model.name);
  if (names.length === 0) return notFound(`the Ollama at ${server} has no local model`);
  const asked = names.slice(0, MAX_MODELS_ASKED);
  const capabilities = await Promise.all(asked.map((name) => modelCapabilities(request, name)));
  const index = capabilities.findIndex((list) => list?.includes('tools'));
  if (index !== -1) return { found: true, server, model: asked[index]! };
  if (signal.aborted && capabilities.includes(undefined)) {
    return notFound(`the Ollama at ${server} did not say within ${timeoutMs} ms which of its models call tools`);
  }
  if (capabilities.every((list) => list === undefined)) {
    return notFound(`the Ollama at ${server} reports no capabilities of its models (older Ollamas do not): name one with --model ollama:<name>`);
  }
  const shown = asked.slice(0, NAMES_SHOWN).join(', ') + (asked.length > NAMES_SHOWN ? ', ...' : '');
  return notFound(`no local model of the Ollama at ${server} calls tools (${shown})`);
}

/** The capabilities `/api/show` reports for a model; undefined when it reports none or fails. */
async function modelCapabilities(request: (path: string, init?: RequestInit) => Promise<Response>, name: string): Promise<string[] | undefined> {
  try {
    const response = await request('/api/show', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: name }) });
    const show = showSchema.safeParse(await response.json());
    return response.ok && show.success ? (show.data.capabilities ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}
