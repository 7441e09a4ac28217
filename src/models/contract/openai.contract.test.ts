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

/**
 * OpenAI Responses API (`POST /responses`), driven by the real agent loop through
 * `resolveModel('openai:gpt-5-mini')`. Turn 1 returns a `function_call` output item; turn 2 a
 * `message` whose `output_text` is the JSON answer.
 */
describe('contract: openai (Responses API) through agenticRun', () => {
  const searchCall = readProviderFixture('openai-responses-search-call.json');
  const finalAnswer = readProviderFixture('openai-responses-final-answer.json');
  const callId = 'call_Lq3s9YtR2mXbV7nK1pWd4eZa';

  const scenario = () =>
    runOverLoopback({
      spec: () => 'openai:gpt-5-mini',
      env: (url) => ({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${url}/v1` }),
      script: [jsonResponse(searchCall), jsonResponse(finalAnswer)],
    });

  it('parses the function call and the structured answer, and verifies the citation', async () => {
    const { run } = await scenario();
    expect(run.answer).toEqual(EXPECTED_ANSWER);
    expect(run.trace.stopReason).toBe('model-done');
    expect(run.trace.toolChoices).toEqual(['required', 'auto']);
    expect(run.trace.errors).toEqual([]);
    expect(run.trace.steps.map((step) => [step.query, step.chunkIds])).toEqual([['default lease length', ['leases#0', 'leases#1']]]);
    // usage.input_tokens/output_tokens of both responses, priced at gpt-5-mini list prices.
    expect(run.usage).toEqual({ modelCalls: 2, inputTokens: 1184 + 1532, outputTokens: 214 + 301, costUsd: 0.001709 });
  });

  it('sends POST /v1/responses with the key, the three tool schemas and the answer JSON schema', async () => {
    const { requests } = await scenario();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/responses', 'POST /v1/responses']);
    for (const request of requests) {
      expect(request.headers.authorization).toBe('Bearer sk-contract');
      const body = asRecord(request.body);
      expect(body.model).toBe('gpt-5-mini');
      const tools = body.tools as Array<Record<string, unknown>>;
      expect(tools.map((tool) => [tool.type, tool.name])).toEqual([
        ['function', 'search_docs'],
        ['function', 'read_section'],
        ['function', 'read_neighbors'],
      ]);
      for (const tool of tools) {
        expect(withoutDescriptions(tool.parameters)).toEqual(EXPECTED_TOOL_SCHEMAS[tool.name as string]);
        expect(typeof tool.description).toBe('string');
      }
      const format = asRecord(asRecord(body.text).format);
      expect(format).toMatchObject({ type: 'json_schema', strict: true, name: 'response' });
      expect(withoutDescriptions(format.schema)).toEqual(EXPECTED_ANSWER_SCHEMA);
    }
  });

  it('asks for tool_choice "required" on the first request and "auto" on the second', async () => {
    const { requests } = await scenario();
    expect(requests.map((request) => asRecord(request.body).tool_choice)).toEqual(['required', 'auto']);
  });

  it('sends the system prompt as a developer message and the question as input_text', async () => {
    const { requests } = await scenario();
    const [first, second] = requests.map((request) => asRecord(request.body).input as Array<Record<string, unknown>>);
    expect(first?.[0]?.role).toBe('developer');
    expect(first?.[0]?.content).toContain('search_docs');
    expect(first?.[1]).toEqual({ role: 'user', content: [{ type: 'input_text', text: 'How long is the default lease?' }] });
    expect(second?.slice(0, 2)).toEqual(first);
  });

  it('replays the function_call and wires function_call_output to its call_id in request 2', async () => {
    const { requests } = await scenario();
    const input = asRecord(requests[1]?.body).input as Array<Record<string, unknown>>;
    // store defaults to true, so the reasoning item goes back by reference.
    expect(input.slice(2, 4)).toEqual([
      { type: 'item_reference', id: 'rs_0a1b2c3d4e5f60718293a4b5c6d7e8f9' },
      { type: 'function_call', call_id: callId, name: 'search_docs', arguments: '{"query":"default lease length"}' },
    ]);
    const output = asRecord(input[4]);
    expect(output.type).toBe('function_call_output');
    expect(output.call_id).toBe(callId);
    const results = searchResultsIn(output.output);
    expect(results.map((result) => result.chunk_id)).toEqual(['leases#0', 'leases#1']);
    expect(results[0]?.text).toContain(LEASE_QUOTE);
    expect(input).toHaveLength(5);
  });

  // Contract (pricing): an unknown cost is null, never 0. Today model-call.ts turns missing
  // usage counts into 0 (toCallUsage), so a priced model whose provider omits `usage` reports
  // costUsd 0 and 0 tokens as if the calls were free.
  it('reports costUsd null, not 0, when a priced model\'s responses carry no usage', async () => {
    const withoutUsage = (response: unknown) => {
      const { usage: _usage, ...rest } = asRecord(response);
      return rest;
    };
    const { run } = await runOverLoopback({
      spec: () => 'openai:gpt-5-mini',
      env: (url) => ({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${url}/v1` }),
      script: [jsonResponse(withoutUsage(searchCall)), jsonResponse(withoutUsage(finalAnswer))],
    });
    expect(run.answer).toEqual(EXPECTED_ANSWER);
    expect(run.usage.costUsd).toBeNull();
  });
});
