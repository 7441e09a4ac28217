import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../testing/loopback-server.ts';
import { asRecord, readProviderFixture } from './scenario.ts';
import { RETURNED_TITLE, RETURNED_URL, runWebOverLoopback, webAnswerJson } from './web-scenario.ts';

/**
 * A turn that searches the web AND calls a docs tool: the loop answers only its own call (the
 * provider ran the search), and the next request replays the web search in the provider's format.
 */
function withWebSearchFirst(fixture: string, webItems: unknown[], field: 'output' | 'content'): unknown {
  const response = asRecord(readProviderFixture(fixture));
  return { ...response, [field]: [...webItems, ...(response[field] as unknown[])] };
}

describe('contract: a web search beside a docs tool call, replayed on the next turn', () => {
  it('openai (Responses API): request 2 references the web_search_call item and answers only the function call', async () => {
    const turn1 = withWebSearchFirst(
      'openai-responses-search-call.json',
      [{ id: 'ws_0a1b2c3d4e5f60718293a4b5c6d7e8f9', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'orbit lease', sources: [{ type: 'url', url: RETURNED_URL }] } }],
      'output',
    );
    const turn2 = asRecord(readProviderFixture('openai-responses-final-answer.json'));
    const message = (turn2.output as Array<Record<string, unknown>>)[1] as Record<string, unknown>;
    const finalTurn = { ...turn2, output: [{ ...message, content: [{ type: 'output_text', annotations: [], logprobs: [], text: webAnswerJson(RETURNED_URL) }] }] };
    const { run, requests } = await runWebOverLoopback({
      spec: () => 'openai:gpt-5-mini',
      env: (url) => ({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${url}/v1` }),
      script: [jsonResponse(turn1), jsonResponse(finalTurn)],
    });
    const input = asRecord(requests[1]?.body).input as Array<Record<string, unknown>>;
    expect(input.slice(2).map((item) => [item.type, item.id ?? item.call_id])).toEqual([
      ['item_reference', 'ws_0a1b2c3d4e5f60718293a4b5c6d7e8f9'],
      ['item_reference', 'rs_0a1b2c3d4e5f60718293a4b5c6d7e8f9'],
      ['function_call', 'call_Lq3s9YtR2mXbV7nK1pWd4eZa'],
      ['function_call_output', 'call_Lq3s9YtR2mXbV7nK1pWd4eZa'],
    ]);
    expect(run.trace.errors).toEqual([]);
    expect(run.trace.calls.map((call) => call.toolCalls)).toEqual([['search_docs'], []]);
    expect([run.usage.webSearches, run.trace.web?.sources]).toEqual([1, [{ url: RETURNED_URL }]]);
    expect(run.answer.webCitations).toEqual([{ url: RETURNED_URL, quote: 'On Orbit Cloud the lease can be raised to 10 minutes.' }]);
  });

  it('anthropic (Messages API): request 2 replays server_tool_use and web_search_tool_result, with a tool_result only for search_docs', async () => {
    const searchId = 'srvtoolu_01Replay000000000000000';
    const turn1 = withWebSearchFirst(
      'anthropic-messages-tool-use.json',
      [
        { type: 'server_tool_use', id: searchId, name: 'web_search', input: { query: 'orbit lease' } },
        { type: 'web_search_tool_result', tool_use_id: searchId, content: [{ type: 'web_search_result', url: RETURNED_URL, title: RETURNED_TITLE, encrypted_content: 'EqgfCioIARgB', page_age: null }] },
      ],
      'content',
    );
    const finalTurn = { ...asRecord(readProviderFixture('anthropic-messages-final-answer.json')), content: [{ type: 'text', text: webAnswerJson(RETURNED_URL) }] };
    const { run, requests } = await runWebOverLoopback({
      spec: () => 'anthropic:claude-haiku-4-5',
      env: (url) => ({ ANTHROPIC_API_KEY: 'ak-contract', ANTHROPIC_BASE_URL: `${url}/v1` }),
      script: [jsonResponse(turn1), jsonResponse(finalTurn)],
    });
    const messages = asRecord(requests[1]?.body).messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages.map((entry) => [entry.role, entry.content.map((part) => part.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['server_tool_use', 'web_search_tool_result', 'tool_use']],
      ['user', ['tool_result']],
    ]);
    expect(messages[1]?.content[1]).toEqual({
      type: 'web_search_tool_result',
      tool_use_id: searchId,
      content: [{ type: 'web_search_result', url: RETURNED_URL, title: RETURNED_TITLE, encrypted_content: 'EqgfCioIARgB', page_age: null }],
    });
    expect(messages[2]?.content[0]?.tool_use_id).toBe('toolu_01A09q90qw90lq917835lq9');
    expect(run.trace.errors).toEqual([]);
    // No web_search_requests in usage: the server_tool_use block is counted.
    expect([run.usage.webSearches, run.trace.web?.sources]).toEqual([1, [{ url: RETURNED_URL, title: RETURNED_TITLE }]]);
    expect(run.answer.webCitations?.map((citation) => citation.url)).toEqual([RETURNED_URL]);
  });
});
