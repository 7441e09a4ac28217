import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AtlasError } from '../errors.ts';
import { hangResponse, jsonResponse, startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../testing/loopback-server.ts';
import { findOllamaToolModel, ollamaServer } from './ollama-probe.ts';

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../testing/__fixtures__/providers/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

const TAGS = fixture('ollama-tags.json');
const SHOW = fixture('ollama-show.json');

/** What each model of ollama-tags.json reports in /api/show (the cloud model is never asked). */
const CAPABILITIES: Record<string, string[]> = {
  'nomic-embed-text:latest': ['embedding'],
  'llama2:latest': ['completion'],
  'qwen3:8b': ['completion', 'tools', 'thinking'],
  'llama3.2:latest': ['completion', 'tools'],
};

/** A loopback Ollama: /api/tags answers `tags`, /api/show answers `show(model)`. */
function ollama(tags: ScriptedResponse, show: (model: string) => ScriptedResponse = (model) => jsonResponse({ ...SHOW, capabilities: CAPABILITIES[model] })) {
  return startLoopbackServer((request) => {
    if (request.method === 'GET' && request.path === '/api/tags') return tags;
    if (request.method === 'POST' && request.path === '/api/show') return show((request.body as { model: string }).model);
    throw new Error(`not an Ollama route: ${request.method} ${request.path}`);
  });
}

/** No time budget: the tests of what the probe reads must not depend on the machine's load. */
const unbounded = { timeoutSignal: () => new AbortController().signal };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ollamaServer', () => {
  it('is the native API root: OLLAMA_BASE_URL without its /v1, else localhost', () => {
    expect(ollamaServer({})).toBe('http://localhost:11434');
    expect(ollamaServer({ OLLAMA_BASE_URL: 'http://gpu-box:11434/v1/' })).toBe('http://gpu-box:11434');
    expect(ollamaServer({ OLLAMA_BASE_URL: ' http://gpu-box:11434 ' })).toBe('http://gpu-box:11434');
    expect(() => ollamaServer({ OLLAMA_BASE_URL: 'gpu-box:11434' })).toThrow(
      new AtlasError('model-config', 'Atlas: OLLAMA_BASE_URL is not an http(s) URL: "gpu-box:11434". Fix it, or unset it to use the default.'),
    );
  });
});

describe('findOllamaToolModel', () => {
  it('takes the first local model that calls tools, in the order of /api/tags, and never asks about a cloud model', async () => {
    server = await ollama(jsonResponse(TAGS));
    const probe = await findOllamaToolModel({ env: { OLLAMA_BASE_URL: `${server.url}/v1` }, fetch, ...unbounded });
    expect(probe).toEqual({ found: true, server: server.url, model: 'qwen3:8b' });
    server.assertScriptConsumed();
    const requests = server.requests();
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/tags' });
    // The details are asked for in parallel: their order of arrival varies.
    const shows = requests.slice(1).map((request) => [request.method, request.path, request.headers['content-type'], request.body]);
    expect(shows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      ['llama2:latest', 'llama3.2:latest', 'nomic-embed-text:latest', 'qwen3:8b'].map((model) => ['POST', '/api/show', 'application/json', { model }]),
    );
  });

  it('finds none when no local model calls tools, and names the models asked', async () => {
    server = await ollama(jsonResponse(TAGS), (model) => jsonResponse({ ...SHOW, capabilities: model.startsWith('nomic') ? ['embedding'] : ['completion'] }));
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, ...unbounded })).toEqual({
      found: false,
      server: server.url,
      reason: `no local model of the Ollama at ${server.url} calls tools (nomic-embed-text:latest, llama2:latest, qwen3:8b, ...)`,
    });
  });

  it('finds none on an Ollama too old to report capabilities, and says how to name a model', async () => {
    const { capabilities: _capabilities, ...oldShow } = SHOW;
    server = await ollama(jsonResponse(TAGS), () => jsonResponse(oldShow));
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, ...unbounded })).toEqual({
      found: false,
      server: server.url,
      reason: `the Ollama at ${server.url} reports no capabilities of its models (older Ollamas do not): name one with --model ollama:<name>`,
    });
  });

  it('finds none on an Ollama with only cloud models, or none at all', async () => {
    const cloudOnly = { models: (TAGS.models as Array<{ name: string }>).filter((model) => model.name.endsWith('-cloud')) };
    server = await ollama(jsonResponse(cloudOnly));
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, ...unbounded })).toEqual({ found: false, server: server.url, reason: `the Ollama at ${server.url} has no local model` });
    expect(server.requests().map((request) => request.path)).toEqual(['/api/tags']);
    await server.close();
    server = await ollama(jsonResponse({ models: [] }));
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, ...unbounded })).toMatchObject({ found: false, reason: `the Ollama at ${server.url} has no local model` });
  });

  it('finds none where nothing listens', async () => {
    const closed = await startLoopbackServer([]);
    await closed.close();
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: `${closed.url}/v1` }, fetch, ...unbounded })).toEqual({
      found: false,
      server: closed.url,
      reason: `no Ollama answered at ${closed.url}`,
    });
  });

  it('finds none where something else answers: an error status, or a body that is not Ollama\'s', async () => {
    server = await ollama(jsonResponse({ error: 'not found' }, { status: 404 }));
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, ...unbounded })).toMatchObject({
      found: false,
      reason: `${server.url} did not answer GET /api/tags as Ollama does (HTTP 404)`,
    });
    await server.close();
    server = await ollama({ type: 'text', status: 200, headers: {}, body: '<html>a web page</html>' });
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, ...unbounded })).toMatchObject({
      found: false,
      reason: `${server.url} did not answer GET /api/tags as Ollama does (HTTP 200)`,
    });
  });

  it('follows no redirect: only the configured server is ever asked', async () => {
    const elsewhere = await ollama(jsonResponse(TAGS));
    server = await ollama(jsonResponse({}, { status: 302, headers: { location: `${elsewhere.url}/api/tags` } }));
    try {
      expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, ...unbounded })).toMatchObject({ found: false, reason: `no Ollama answered at ${server.url}` });
      expect(elsewhere.requests()).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('gives up when its time budget is spent: one signal covers the list and the details', async () => {
    const budgets: number[] = [];
    const timeout = new AbortController();
    const timeoutSignal = (ms: number) => {
      budgets.push(ms);
      return timeout.signal;
    };
    // The list hangs; the budget runs out once the server has the request.
    server = await startLoopbackServer(() => {
      timeout.abort(new DOMException('500 ms', 'TimeoutError'));
      return hangResponse();
    });
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, timeoutSignal })).toEqual({
      found: false,
      server: server.url,
      reason: `no Ollama answered at ${server.url} within 500 ms`,
    });
    expect(budgets).toEqual([500]);
  });

  it('gives up when the details take too long, keeping the budget it was given', async () => {
    const timeout = new AbortController();
    server = await ollama(jsonResponse(TAGS), () => {
      timeout.abort(new DOMException('300 ms', 'TimeoutError'));
      return hangResponse();
    });
    expect(await findOllamaToolModel({ env: { OLLAMA_BASE_URL: server.url }, fetch, timeoutMs: 300, timeoutSignal: () => timeout.signal })).toEqual({
      found: false,
      server: server.url,
      reason: `the Ollama at ${server.url} did not say within 300 ms which of its models call tools`,
    });
  });
});
