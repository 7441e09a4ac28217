import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../../testing/loopback-server.ts';
import { runCli } from '../main.ts';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { cliModel } from './model-option.ts';

const REPO = path.join(import.meta.dirname, '..', '..', '..');
const FIXTURES = path.join(REPO, 'src', 'testing', '__fixtures__', 'providers');
const fixture = async (name: string) => JSON.parse(await readFile(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

/**
 * A loopback Ollama (ollama-tags.json) where `tools` names the models that call tools, answering
 * `chat` in order on its OpenAI-compatible /v1/chat/completions.
 */
async function startOllama(tools: string[], chat: ScriptedResponse[] = []): Promise<LoopbackServer> {
  const [tags, show] = await Promise.all([fixture('ollama-tags.json'), fixture('ollama-show.json')]);
  let chats = 0;
  return startLoopbackServer((request) => {
    if (request.path === '/api/tags') return jsonResponse(tags);
    if (request.path === '/api/show') {
      const model = (request.body as { model: string }).model;
      return jsonResponse({ ...show, capabilities: tools.includes(model) ? ['completion', 'tools'] : ['completion'] });
    }
    const next = request.path === '/v1/chat/completions' ? chat[chats++] : undefined;
    if (next === undefined) throw new Error(`unexpected ${request.method} ${request.path}`);
    return next;
  });
}

/** A fetch that fails every call and counts them: for paths that must ask no one. */
function refusingFetch() {
  const urls: string[] = [];
  const refuse: typeof fetch = async (input) => {
    urls.push(String(input));
    throw new Error('this test allows no HTTP request');
  };
  return { urls, fetch: refuse };
}

/**
 * The real fetch without the probe's 500 ms budget (nor any other abort signal), so that what
 * these tests pick does not depend on the machine's load; the probe's budget is tested in
 * src/models/ollama-probe.test.ts.
 */
const patientFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: null });

let dir: string;
let io: RecordingIO;
let ollama: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-model-option-'));
  io = recordingIO({ cwd: dir });
  await mkdir(path.join(dir, 'docs'));
  await writeFile(path.join(dir, 'docs', 'leases.md'), '---\nid: leases\napplies_to: all\n---\n# Leases\n\nThe default lease is 30 seconds and is renewed by heartbeats.\n');
  expect(await runCli(['ingest', 'docs'], io)).toBe(0);
  io.out.length = 0;
  io.err.length = 0;
});

afterEach(async () => {
  await ollama?.close();
  ollama = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('cliModel: the model of a command that names none', () => {
  it('takes the model of a provider key that is set, says so, and sends nothing anywhere', async () => {
    const http = refusingFetch();
    const keyed = { ...io, fetch: http.fetch, env: { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' } };
    const openai = await cliModel(keyed, undefined);
    expect([openai.spec, openai.price]).toEqual(['openai:gpt-5-mini', { input: 0.25, output: 2, webSearch: 0.01 }]);
    const anthropic = await cliModel({ ...keyed, env: { ANTHROPIC_API_KEY: 'sk-ant-test' } }, undefined);
    expect(anthropic.spec).toBe('anthropic:claude-haiku-4-5');
    expect(io.err).toEqual([
      'atlas: using openai:gpt-5-mini (OPENAI_API_KEY is set); --model offline keeps it offline.\n',
      'atlas: using anthropic:claude-haiku-4-5 (ANTHROPIC_API_KEY is set); --model offline keeps it offline.\n',
    ]);
    expect(http.urls).toEqual([]);
  });

  it('takes a local Ollama model that calls tools when no key is set', async () => {
    ollama = await startOllama(['qwen3:8b', 'llama3.2:latest']);
    const chosen = await cliModel({ ...io, fetch: patientFetch, env: { OLLAMA_BASE_URL: `${ollama.url}/v1` } }, undefined);
    expect([chosen.spec, chosen.price]).toEqual(['ollama:qwen3:8b', { input: 0, output: 0 }]);
    expect(io.err).toEqual([`atlas: using ollama:qwen3:8b (a local Ollama model that calls tools, at ${ollama.url}); --model offline uses the offline planner instead.\n`]);
  });

  it('keeps ATLAS_MODEL and --model as given, without a word and without asking Ollama', async () => {
    ollama = await startOllama(['qwen3:8b']);
    const env = { OLLAMA_BASE_URL: `${ollama.url}/v1`, OPENAI_API_KEY: 'sk-test' };
    expect((await cliModel({ ...io, fetch: patientFetch, env: { ...env, ATLAS_MODEL: 'offline' } }, undefined)).spec).toBe('offline');
    const offline = await cliModel({ ...io, fetch: patientFetch, env }, 'offline');
    const llama = await cliModel({ ...io, fetch: patientFetch, env }, 'ollama:llama3.2');
    // Every model but the offline planner gets it as its closest model (AskOptions.closestModel).
    expect([offline.spec, offline.closestModel, llama.spec, (llama.closestModel as { provider?: string } | undefined)?.provider]).toEqual(['offline', undefined, 'ollama:llama3.2', 'atlas']);
    expect(io.err).toEqual([]);
    expect(ollama.requests()).toEqual([]);
  });

  it('uses the offline planner when nothing is available, and says what it looked for', async () => {
    ollama = await startOllama([]);
    expect((await cliModel({ ...io, fetch: patientFetch, env: { OLLAMA_BASE_URL: `${ollama.url}/v1` } }, undefined)).spec).toBe('offline');
    // Without a fetch (a library caller's or a test's IO) no Ollama is asked.
    expect((await cliModel(io, undefined)).spec).toBe('offline');
    expect(io.err).toEqual([
      `atlas: using the offline planner (no key, no network): no --model, ATLAS_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY, and no local model of the Ollama at ${ollama.url} calls tools (nomic-embed-text:latest, llama2:latest, qwen3:8b, ...).\n`,
      'atlas: using the offline planner (no key, no network): no --model, ATLAS_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY.\n',
    ]);
  });

  it('picks nothing by itself for an eval: offline unless a model is named, and says which in every case', async () => {
    ollama = await startOllama(['qwen3:8b']);
    const evalIO = { ...io, fetch: patientFetch, env: { OLLAMA_BASE_URL: `${ollama.url}/v1` } };
    const pick = { pickAvailable: false };
    expect((await cliModel(evalIO, undefined, pick)).spec).toBe('offline');
    expect((await cliModel({ ...evalIO, env: { ...evalIO.env, OPENAI_API_KEY: 'sk-test' } }, undefined, pick)).spec).toBe('offline');
    expect((await cliModel({ ...evalIO, env: { ...evalIO.env, ATLAS_MODEL: 'ollama:qwen3:8b' } }, undefined, pick)).spec).toBe('ollama:qwen3:8b');
    expect((await cliModel({ ...evalIO, env: { ...evalIO.env, ATLAS_MODEL: 'ollama:qwen3:8b' } }, 'offline', pick)).spec).toBe('offline');
    expect(io.err).toEqual([
      'atlas: eval model: offline (an eval picks no model by itself, so that its runs repeat; name one with --model or ATLAS_MODEL).\n',
      'atlas: eval model: offline (an eval picks no model by itself, so that its runs repeat; OPENAI_API_KEY is set: --model openai:gpt-5-mini uses it).\n',
      'atlas: eval model: ollama:qwen3:8b (ATLAS_MODEL).\n',
      'atlas: eval model: offline (--model).\n',
    ]);
    expect(ollama.requests()).toEqual([]);
  });
});

describe('the commands and the available model', () => {
  it('atlas ask answers with the local Ollama model it found, over its OpenAI-compatible API', async () => {
    const [toolCalls, finalAnswer] = await Promise.all([fixture('chat-completions-tool-calls.json'), fixture('chat-completions-final-answer.json')]);
    ollama = await startOllama(['qwen3:8b'], [jsonResponse(toolCalls), jsonResponse(finalAnswer)]);
    const probing = { ...io, fetch: patientFetch, env: { OLLAMA_BASE_URL: `${ollama.url}/v1` } };
    expect(await runCli(['ask', 'How long is the default lease?', '--json'], probing)).toBe(0);
    ollama.assertScriptConsumed();
    const run = JSON.parse(io.out.join('')) as { model: string; answer: { text: string; citations: Array<{ chunkId: string }> } };
    expect([run.model, run.answer.text, run.answer.citations.map((citation) => citation.chunkId)]).toEqual([
      'ollama:qwen3:8b',
      'The default lease is 30 seconds; workers renew it with heartbeats.',
      ['leases#0'],
    ]);
    const chats = ollama.requests().filter((request) => request.path === '/v1/chat/completions');
    expect(chats.map((request) => (request.body as { model: string }).model)).toEqual(['qwen3:8b', 'qwen3:8b']);
    expect(io.err[0]).toBe(`atlas: using ollama:qwen3:8b (a local Ollama model that calls tools, at ${ollama.url}); --model offline uses the offline planner instead.\n`);
  });

  it('the atlas process asks the Ollama of OLLAMA_BASE_URL with its own fetch', async () => {
    ollama = await startOllama([]);
    const { ATLAS_MODEL: _model, OPENAI_API_KEY: _openai, ANTHROPIC_API_KEY: _anthropic, ...env } = process.env;
    const ask = await promisify(execFile)(process.execPath, [path.join(REPO, 'bin', 'atlas.js'), 'ask', 'How long is the default lease?', '--json'], {
      cwd: dir,
      env: { ...env, OLLAMA_BASE_URL: `${ollama.url}/v1` },
    });
    expect((JSON.parse(ask.stdout) as { model: string }).model).toBe('offline');
    // How far the probe got within its 500 ms depends on the machine's load: the line's end is not asserted.
    expect(ask.stderr).toMatch(/^atlas: using the offline planner \(no key, no network\): no --model, ATLAS_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY, and .*\.\n/);
    expect(ollama.requests()[0]).toMatchObject({ method: 'GET', path: '/api/tags' });
  });

  it('atlas ask --model offline, atlas search and atlas ingest ask no Ollama', async () => {
    const http = refusingFetch();
    const refusing = { ...io, fetch: http.fetch };
    expect(await runCli(['ask', 'How long is the default lease?', '--model', 'offline'], refusing)).toBe(0);
    expect(await runCli(['search', 'lease'], refusing)).toBe(0);
    expect(await runCli(['ingest', 'docs'], refusing)).toBe(0);
    expect(http.urls).toEqual([]);
    expect(io.err.join('')).not.toContain('atlas: using');
  });
});
