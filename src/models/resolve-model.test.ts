import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AtlasError } from '../errors.ts';
import { defaultModelSpec } from '../provider-env.ts';
import { resolveModel } from './resolve-model.ts';

/** A fetch that records where the client sent its request and answers 400, so no call succeeds. */
function createRecordingFetch() {
  const calls: Array<{ url: string; headers: Headers }> = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), headers: new Headers(init?.headers) });
    return new Response(JSON.stringify({ error: { message: 'recorded' } }), { status: 400, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch: recordingFetch };
}

async function callOnce(model: Parameters<typeof generateText>[0]['model']): Promise<void> {
  await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(() => undefined);
}

function errorOf(action: () => unknown): AtlasError {
  try {
    action();
  } catch (error) {
    if (error instanceof AtlasError) return error;
    throw error;
  }
  throw new Error('expected an AtlasError');
}

describe('resolveModel', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('openai:<id> uses the Responses API with the key from env and the default base URL', async () => {
    const recorder = createRecordingFetch();
    const resolved = resolveModel('openai:gpt-5-mini', { env: { OPENAI_API_KEY: 'sk-test' }, fetch: recorder.fetch });
    expect(resolved).toMatchObject({ spec: 'openai:gpt-5-mini', provider: 'openai', modelId: 'gpt-5-mini' });
    expect(resolved.model.provider).toBe('openai.responses');
    expect(resolved.model.modelId).toBe('gpt-5-mini');
    await callOnce(resolved.model);
    expect(recorder.calls.map((call) => call.url)).toEqual(['https://api.openai.com/v1/responses']);
    expect(recorder.calls[0]?.headers.get('authorization')).toBe('Bearer sk-test');
  });

  it('openai honours OPENAI_BASE_URL from the given env', async () => {
    const recorder = createRecordingFetch();
    const { model } = resolveModel('openai:gpt-5', {
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1/' },
      fetch: recorder.fetch,
    });
    await callOnce(model);
    expect(recorder.calls.map((call) => call.url)).toEqual(['http://127.0.0.1:9/v1/responses']);
  });

  it('never reads process.env: keys and base URLs come only from options.env', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-process');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/process');
    vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9/process');
    expect(() => resolveModel('openai:gpt-5-mini', { env: {} })).toThrow('Atlas: OPENAI_API_KEY is not set');

    const recorder = createRecordingFetch();
    await callOnce(resolveModel('openai:gpt-5-mini', { env: { OPENAI_API_KEY: 'sk-given' }, fetch: recorder.fetch }).model);
    await callOnce(resolveModel('anthropic:claude-haiku-4-5', { env: { ANTHROPIC_API_KEY: 'ak-given' }, fetch: recorder.fetch }).model);
    expect(recorder.calls.map((call) => call.url)).toEqual(['https://api.openai.com/v1/responses', 'https://api.anthropic.com/v1/messages']);
    expect(recorder.calls[0]?.headers.get('authorization')).toBe('Bearer sk-given');
  });

  it('anthropic:<id> uses the Messages API with x-api-key and ANTHROPIC_BASE_URL', async () => {
    const recorder = createRecordingFetch();
    const resolved = resolveModel('anthropic:claude-haiku-4-5', {
      env: { ANTHROPIC_API_KEY: 'ak-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/anthropic/v1' },
      fetch: recorder.fetch,
    });
    expect(resolved).toMatchObject({ provider: 'anthropic', modelId: 'claude-haiku-4-5' });
    expect(resolved.model.provider).toBe('anthropic.messages');
    await callOnce(resolved.model);
    expect(recorder.calls.map((call) => call.url)).toEqual(['http://127.0.0.1:9/anthropic/v1/messages']);
    expect(recorder.calls[0]?.headers.get('x-api-key')).toBe('ak-test');
  });

  it('ollama:<id> talks Chat Completions to OLLAMA_BASE_URL (default localhost:11434) without a key', async () => {
    const recorder = createRecordingFetch();
    const resolved = resolveModel('ollama:qwen3:8b', { env: {}, fetch: recorder.fetch });
    expect(resolved).toMatchObject({ spec: 'ollama:qwen3:8b', provider: 'ollama', modelId: 'qwen3:8b' });
    expect(resolved.model.provider).toBe('ollama.chat');
    await callOnce(resolved.model);
    await callOnce(resolveModel('ollama:llama3.2', { env: { OLLAMA_BASE_URL: 'http://gpu-box:11434/v1' }, fetch: recorder.fetch }).model);
    expect(recorder.calls.map((call) => call.url)).toEqual([
      'http://localhost:11434/v1/chat/completions',
      'http://gpu-box:11434/v1/chat/completions',
    ]);
    expect(recorder.calls[0]?.headers.get('authorization')).toBeNull();
  });

  it('openai-compatible:<baseURL>#<id> uses the base URL and OPENAI_COMPATIBLE_API_KEY when set', async () => {
    const recorder = createRecordingFetch();
    const spec = 'openai-compatible:http://127.0.0.1:8000/v1#Qwen/Qwen3-8B';
    const resolved = resolveModel(spec, { env: {}, fetch: recorder.fetch });
    expect(resolved).toMatchObject({ spec, provider: 'openai-compatible', modelId: 'Qwen/Qwen3-8B' });
    await callOnce(resolved.model);
    await callOnce(resolveModel(spec, { env: { OPENAI_COMPATIBLE_API_KEY: 'vk' }, fetch: recorder.fetch }).model);
    expect(recorder.calls.map((call) => call.url)).toEqual([
      'http://127.0.0.1:8000/v1/chat/completions',
      'http://127.0.0.1:8000/v1/chat/completions',
    ]);
    expect(recorder.calls.map((call) => call.headers.get('authorization'))).toEqual([null, 'Bearer vk']);
  });

  it('offline calls the planner factory the caller wired', () => {
    const planner = new MockLanguageModelV3({ provider: 'atlas', modelId: 'offline-planner' });
    const resolved = resolveModel('offline', { env: {}, offline: () => planner });
    expect(resolved).toEqual({ model: planner, spec: 'offline', provider: 'offline', modelId: 'offline' });
  });

  it('offline without a wired planner is a clear internal error', () => {
    const error = errorOf(() => resolveModel('offline', { env: {} }));
    expect(error.code).toBe('internal');
    expect(error.message).toBe(
      'Atlas: model "offline" was requested but resolveModel got no offline planner. The caller wires it: pass options.offline (a function returning the offline planner model).',
    );
  });

  it('a missing key names the variable, the model and the way out', () => {
    const openai = errorOf(() => resolveModel('openai:gpt-5-mini', { env: { OPENAI_API_KEY: '' } }));
    expect(openai.code).toBe('model-config');
    expect(openai.message).toBe(
      'Atlas: OPENAI_API_KEY is not set, needed for model "openai:gpt-5-mini". Set it, or use --model offline (no key needed).',
    );
    const anthropic = errorOf(() => resolveModel('anthropic:claude-sonnet-4-5', { env: { OPENAI_API_KEY: 'sk' } }));
    expect(anthropic.code).toBe('model-config');
    expect(anthropic.message).toBe(
      'Atlas: ANTHROPIC_API_KEY is not set, needed for model "anthropic:claude-sonnet-4-5". Set it, or use --model offline (no key needed).',
    );
  });

  it('a base URL that is not http(s) is a model-config error naming the variable', () => {
    const error = errorOf(() => resolveModel('ollama:llama3.2', { env: { OLLAMA_BASE_URL: 'localhost:11434' } }));
    expect(error.code).toBe('model-config');
    expect(error.message).toBe('Atlas: OLLAMA_BASE_URL is not an http(s) URL: "localhost:11434". Fix it, or unset it to use the default.');
  });

  it.each([
    ['gpt-5-mini', 'it has no provider prefix'],
    ['', 'it has no provider prefix'],
    ['Offline', 'it has no provider prefix'],
    ['gemini:gemini-2.5-pro', '"gemini" is not a known provider'],
    ['openai:', 'the model id after "openai:" is missing or contains spaces'],
    ['anthropic:claude haiku', 'the model id after "anthropic:" is missing or contains spaces'],
    ['openai-compatible:http://localhost:8000/v1', 'openai-compatible needs "<baseURL>#<model>"'],
    ['openai-compatible:localhost:8000#qwen', '"localhost:8000" is not an http(s) URL'],
    ['openai-compatible:http://localhost:8000/v1#', 'the model id after "#" is missing or contains spaces'],
  ])('rejects the spec %j: %s', (spec, reason) => {
    const error = errorOf(() => resolveModel(spec, { env: {} }));
    expect(error.code).toBe('usage');
    expect(error.message).toBe(
      `Atlas: invalid model "${spec}": ${reason}. Use one of: offline, openai:<model>, anthropic:<model>, ollama:<model>, openai-compatible:<baseURL>#<model> (e.g. openai:gpt-5-mini, or offline for no key).`,
    );
  });
});

describe('defaultModelSpec', () => {
  it('uses ATLAS_MODEL when set, else the small model of the first provider key set, else offline', () => {
    expect(defaultModelSpec({ ATLAS_MODEL: 'anthropic:claude-haiku-4-5', OPENAI_API_KEY: 'sk' })).toBe('anthropic:claude-haiku-4-5');
    expect(defaultModelSpec({ OPENAI_API_KEY: 'sk', ANTHROPIC_API_KEY: 'sk-ant' })).toBe('openai:gpt-5-mini');
    expect(defaultModelSpec({ OPENAI_API_KEY: ' ', ANTHROPIC_API_KEY: 'sk-ant' })).toBe('anthropic:claude-haiku-4-5');
    expect(defaultModelSpec({ ATLAS_MODEL: ' ' })).toBe('offline');
    expect(defaultModelSpec({})).toBe('offline');
  });
});
