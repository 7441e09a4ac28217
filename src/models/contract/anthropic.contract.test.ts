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
 * Anthropic Messages API (`POST /v1/messages`), driven by the real agent loop through
 * `resolveModel('anthropic:claude-haiku-4-5')`. Turn 1 returns a `tool_use` block with
 * `stop_reason: "tool_use"`; turn 2 a `text` block holding the JSON answer, `end_turn`.
 */
describe('contract: anthropic (Messages API) through agenticRun', () => {
  const toolUse = readProviderFixture('anthropic-messages-tool-use.json');
  const finalAnswer = readProviderFixture('anthropic-messages-final-answer.json');
  const toolUseId = 'toolu_01A09q90qw90lq917835lq9';

  const scenario = () =>
    runOverLoopback({
      spec: () => 'anthropic:claude-haiku-4-5',
      env: (url) => ({ ANTHROPIC_API_KEY: 'ak-contract', ANTHROPIC_BASE_URL: `${url}/v1` }),
      script: [jsonResponse(toolUse), jsonResponse(finalAnswer)],
    });

  it('parses the tool_use block and the structured text answer, and verifies the citation', async () => {
    const { run } = await scenario();
    expect(run.answer).toEqual(EXPECTED_ANSWER);
    expect(run.trace.stopReason).toBe('model-done');
    expect(run.trace.toolChoices).toEqual(['required', 'auto']);
    expect(run.trace.errors).toEqual([]);
    expect(run.trace.steps.map((step) => [step.query, step.chunkIds])).toEqual([['default lease length', ['leases#0', 'leases#1']]]);
    // 2901 input and 129 output tokens at claude-haiku-4-5 list prices ($1 / $5 per 1M).
    expect(run.usage).toEqual({ modelCalls: 2, inputTokens: 1290 + 1611, outputTokens: 58 + 71, costUsd: 0.003546 });
  });

  it('sends POST /v1/messages with x-api-key, anthropic-version, the tool schemas and output_config', async () => {
    const { requests } = await scenario();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/messages', 'POST /v1/messages']);
    for (const request of requests) {
      expect(request.headers['x-api-key']).toBe('ak-contract');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      // The AI SDK marks native structured outputs with this beta header.
      expect(request.headers['anthropic-beta']).toBe('structured-outputs-2025-11-13');
      const body = asRecord(request.body);
      expect(body.model).toBe('claude-haiku-4-5');
      expect(typeof body.max_tokens).toBe('number');
      const tools = body.tools as Array<Record<string, unknown>>;
      expect(tools.map((tool) => tool.name)).toEqual(['search_docs', 'read_section', 'read_neighbors']);
      for (const tool of tools) {
        expect(withoutDescriptions(tool.input_schema)).toEqual(EXPECTED_TOOL_SCHEMAS[tool.name as string]);
        expect(typeof tool.description).toBe('string');
      }
      const format = asRecord(asRecord(body.output_config).format);
      expect(format.type).toBe('json_schema');
      expect(withoutDescriptions(format.schema)).toEqual(EXPECTED_ANSWER_SCHEMA);
    }
  });

  it('asks for tool_choice {type: "any"} on the first request and {type: "auto"} on the second', async () => {
    const { requests } = await scenario();
    expect(requests.map((request) => asRecord(request.body).tool_choice)).toEqual([{ type: 'any' }, { type: 'auto' }]);
  });

  it('sends the system prompt in the top-level system field, not as a message', async () => {
    const { requests } = await scenario();
    const [first, second] = requests.map((request) => asRecord(request.body));
    const system = first?.system as Array<Record<string, unknown>>;
    expect(system).toHaveLength(1);
    expect(system[0]?.type).toBe('text');
    expect(system[0]?.text).toContain('search_docs');
    expect(second?.system).toEqual(system);
    expect(first?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'How long is the default lease?' }] }]);
  });

  it('replays the tool_use block and wires the tool_result to its id in request 2', async () => {
    const { requests } = await scenario();
    const messages = asRecord(requests[1]?.body).messages as Array<Record<string, unknown>>;
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: toolUseId, name: 'search_docs', input: { query: 'default lease length' } }],
    });
    expect(messages[2]?.role).toBe('user');
    const [toolResult, ...rest] = messages[2]?.content as Array<Record<string, unknown>>;
    expect(rest).toEqual([]);
    expect(toolResult?.type).toBe('tool_result');
    expect(toolResult?.tool_use_id).toBe(toolUseId);
    expect(toolResult?.is_error).toBeUndefined();
    const results = searchResultsIn(toolResult?.content);
    expect(results.map((result) => result.chunk_id)).toEqual(['leases#0', 'leases#1']);
    expect(results[0]?.text).toContain(LEASE_QUOTE);
  });
});
