import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_MODELS } from '../provider-env.ts';
import { jsonResponse, startLoopbackServer, type LoopbackServer } from '../testing/loopback-server.ts';
import { pickDefaultModel } from './default-model.ts';
import { DEFAULT_PRICES, findPrice } from './pricing.ts';

const TAGS = JSON.parse(readFileSync(new URL('../testing/__fixtures__/providers/ollama-tags.json', import.meta.url), 'utf8')) as unknown;
const SHOW = JSON.parse(readFileSync(new URL('../testing/__fixtures__/providers/ollama-show.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/** A loopback Ollama where llama3.2 is the one model that calls tools. */
function toolOllama() {
  return startLoopbackServer((request) => {
    if (request.path === '/api/tags') return jsonResponse(TAGS);
    return jsonResponse({ ...SHOW, capabilities: (request.body as { model: string }).model === 'llama3.2:latest' ? ['completion', 'tools'] : ['completion'] });
  });
}

/** No time budget: these tests must not depend on the machine's load. */
const unbounded = { timeoutSignal: () => new AbortController().signal };

let ollama: LoopbackServer | undefined;
afterEach(async () => {
  await ollama?.close();
  ollama = undefined;
});

describe('pickDefaultModel', () => {
  it('takes ATLAS_MODEL first, then a provider key, asking no Ollama for either', async () => {
    ollama = await toolOllama();
    const env = { OLLAMA_BASE_URL: `${ollama.url}/v1` };
    expect(await pickDefaultModel({ env: { ...env, ATLAS_MODEL: ' ollama:llama3.2 ', OPENAI_API_KEY: 'sk-test' }, fetch, ...unbounded })).toEqual({ source: 'ATLAS_MODEL', spec: 'ollama:llama3.2' });
    expect(await pickDefaultModel({ env: { ...env, OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' }, fetch, ...unbounded })).toEqual({
      source: 'key',
      spec: 'openai:gpt-5-mini',
      variable: 'OPENAI_API_KEY',
    });
    expect(await pickDefaultModel({ env: { ...env, OPENAI_API_KEY: ' ', ANTHROPIC_API_KEY: 'sk-ant-test' }, fetch, ...unbounded })).toEqual({
      source: 'key',
      spec: 'anthropic:claude-haiku-4-5',
      variable: 'ANTHROPIC_API_KEY',
    });
    expect(ollama.requests()).toEqual([]);
  });

  it('picks for a key a model whose price Atlas knows', () => {
    expect(KEY_MODELS.map((entry) => [entry.variable, entry.spec, findPrice(entry.spec, DEFAULT_PRICES)?.input])).toEqual([
      ['OPENAI_API_KEY', 'openai:gpt-5-mini', 0.25],
      ['ANTHROPIC_API_KEY', 'anthropic:claude-haiku-4-5', 1],
    ]);
  });

  it('takes a local Ollama model that calls tools when no key is set', async () => {
    ollama = await toolOllama();
    expect(await pickDefaultModel({ env: { OLLAMA_BASE_URL: `${ollama.url}/v1`, ATLAS_MODEL: '' }, fetch, ...unbounded })).toEqual({
      source: 'ollama',
      spec: 'ollama:llama3.2:latest',
      server: ollama.url,
    });
  });

  it('falls back to the offline planner, saying why no Ollama model was taken', async () => {
    const closed = await startLoopbackServer([]);
    await closed.close();
    expect(await pickDefaultModel({ env: { OLLAMA_BASE_URL: `${closed.url}/v1` }, fetch, ...unbounded })).toEqual({
      source: 'offline',
      spec: 'offline',
      ollama: `no Ollama answered at ${closed.url}`,
    });
  });

  it('asks no Ollama without a fetch', async () => {
    ollama = await toolOllama();
    expect(await pickDefaultModel({ env: { OLLAMA_BASE_URL: `${ollama.url}/v1` }, ...unbounded })).toEqual({ source: 'offline', spec: 'offline' });
    expect(ollama.requests()).toEqual([]);
  });
});
