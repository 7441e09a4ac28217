import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../testing/loopback-server.ts';
import {
  asRecord,
  EXPECTED_ANSWER,
  EXPECTED_ANSWER_SCHEMA,
  EXPECTED_TOOL_SCHEMAS,
  LEASE_QUOTE,
  readProviderFixture,
  runOverLoopback,
  searchResultsIn,
  withoutDescriptions,
} from './scenario.ts';
import type { ModelEnv } from '../resolve-model.ts';

/**
 * OpenAI-compatible Chat Completions (`POST /chat/completions`), driven by the real agent loop
 * through `resolveModel('openai-compatible:<url>#qwen3-8b')` and `resolveModel('ollama:qwen3-8b')`
 * (same wire format). Turn 1 returns `message.tool_calls`; turn 2 `message.content` with the
 * JSON answer.
 */
const providers: Array<{ name: string; spec: (url: string) => string; env: (url: string) => ModelEnv; authorization?: string }> = [
  {
    name: 'openai-compatible',
    spec: (url) => `openai-compatible:${url}/v1#qwen3-8b`,
    env: () => ({ OPENAI_COMPATIBLE_API_KEY: 'vk-contract' }),
    authorization: 'Bearer vk-contract',
  },
  { name: 'ollama', spec: () => 'ollama:qwen3-8b', env: (url) => ({ OLLAMA_BASE_URL: `${url}/v1` }) },
];

describe.each(providers)('contract: $name (Chat Completions) through agenticRun', ({ name, spec, env, authorization }) => {
  const toolCalls = readProviderFixture('chat-completions-tool-calls.json');
  const finalAnswer = readProviderFixture('chat-completions-final-answer.json');
  const callId = 'call_8f2kQ1vT0bNwXyZ3aLm5cRd7';

  const scenario = () => runOverLoopback({ spec, env, script: [jsonResponse(toolCalls), jsonResponse(finalAnswer)] });

  it('parses tool_calls and the structured content answer, and verifies the citation', async () => {
    const { run } = await scenario();
    expect(run.answer).toEqual(EXPECTED_ANSWER);
    expect(run.trace.stopReason).toBe('model-done');
    expect(run.trace.toolChoices).toEqual(['required', 'auto']);
    expect(run.trace.errors).toEqual([]);
    expect(run.trace.steps.map((step) => [step.query, step.chunkIds])).toEqual([['default lease length', ['leases#0', 'leases#1']]]);
    // Ollama runs locally (price 0); an arbitrary compatible server has no known price (null).
    const costUsd = name === 'ollama' ? 0 : null;
    expect(run.usage).toEqual({ modelCalls: 2, inputTokens: 702 + 941, outputTokens: 23 + 52, costUsd });
  });

  it('sends POST /v1/chat/completions with the tool schemas and a json_schema response_format', async () => {
    const { requests } = await scenario();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
    ]);
    for (const request of requests) {
      expect(request.headers.authorization).toBe(authorization);
      const body = asRecord(request.body);
      expect(body.model).toBe('qwen3-8b');
      const tools = body.tools as Array<{ type: string; function: Record<string, unknown> }>;
      expect(tools.map((tool) => [tool.type, tool.function.name])).toEqual([
        ['function', 'search_docs'],
        ['function', 'read_section'],
        ['function', 'read_neighbors'],
      ]);
      for (const tool of tools) {
        expect(withoutDescriptions(tool.function.parameters)).toEqual(EXPECTED_TOOL_SCHEMAS[tool.function.name as string]);
      }
      const format = asRecord(body.response_format);
      expect(format.type).toBe('json_schema');
      const jsonSchema = asRecord(format.json_schema);
      expect(jsonSchema).toMatchObject({ name: 'response', strict: true });
      expect(withoutDescriptions(jsonSchema.schema)).toEqual(EXPECTED_ANSWER_SCHEMA);
    }
  });

  it('asks for tool_choice "required" on the first request and "auto" on the second', async () => {
    const { requests } = await scenario();
    expect(requests.map((request) => asRecord(request.body).tool_choice)).toEqual(['required', 'auto']);
  });

  it('replays the assistant tool_calls and wires the tool message to the call id in request 2', async () => {
    const { requests } = await scenario();
    const messages = asRecord(requests[1]?.body).messages as Array<Record<string, unknown>>;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[1]).toEqual({ role: 'user', content: 'How long is the default lease?' });
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: callId, type: 'function', function: { name: 'search_docs', arguments: '{"query":"default lease length"}' } }],
    });
    expect(messages[3]?.tool_call_id).toBe(callId);
    const results = searchResultsIn(messages[3]?.content);
    expect(results.map((result) => result.chunk_id)).toEqual(['leases#0', 'leases#1']);
    expect(results[0]?.text).toContain(LEASE_QUOTE);
  });
});
