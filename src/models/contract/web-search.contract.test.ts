import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../testing/loopback-server.ts';
import { asRecord, EXPECTED_ANSWER, EXPECTED_ANSWER_SCHEMA, readProviderFixture, withoutDescriptions } from './scenario.ts';
import {
  OUTSIDE_URL,
  RETURNED_TITLE,
  RETURNED_URL,
  runWebOverLoopback,
  UNRETURNED_URL,
  WEB_ANSWER_TEXT,
  WEB_DOMAINS,
  WEB_QUOTE,
  webAnswerJson,
} from './web-scenario.ts';

/**
 * Provider-hosted web search with an allow-list, over loopback in each provider's documented
 * wire format, through the real agent loop: turn 1 searches the docs (function call), turn 2
 * searches the web at the provider and answers.
 */

/** OpenAI Responses: a `web_search_call` output item, then the message with `url_citation` annotations. */
function openaiWebAnswer(answerJson: string): unknown {
  return {
    id: 'resp_6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d',
    object: 'response',
    created_at: 1764489700,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'gpt-5-mini-2025-08-07',
    output: [
      {
        id: 'ws_6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d',
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: 'Orbit Cloud lease maximum', sources: [{ type: 'url', url: RETURNED_URL }] },
      },
      {
        id: 'msg_6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: answerJson,
            logprobs: [],
            annotations: [{ type: 'url_citation', start_index: 0, end_index: 20, url: `${RETURNED_URL}?utm_source=openai`, title: RETURNED_TITLE }],
          },
        ],
      },
    ],
    parallel_tool_calls: true,
    store: true,
    tool_choice: 'auto',
    usage: { input_tokens: 4210, input_tokens_details: { cached_tokens: 0 }, output_tokens: 180, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 4390 },
  };
}

/** Anthropic Messages: `server_tool_use`, `web_search_tool_result`, then the text answer; `web_search_requests` in usage. */
function anthropicWebAnswer(answerJson: string): unknown {
  return {
    id: 'msg_01WebSearch0000000000000',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5-20251001',
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_01A2b3C4d5E6f7G8h9I0j1K2', name: 'web_search', input: { query: 'Orbit Cloud lease maximum' } },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_01A2b3C4d5E6f7G8h9I0j1K2',
        content: [{ type: 'web_search_result', url: RETURNED_URL, title: RETURNED_TITLE, encrypted_content: 'EqgfCioIARgBIiQ3YTAw', page_age: 'March 3, 2026' }],
      },
      { type: 'text', text: answerJson },
    ],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 5120, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 140, server_tool_use: { web_search_requests: 2 }, service_tier: 'standard' },
  };
}

const providers = [
  {
    name: 'openai (Responses API)',
    spec: () => 'openai:gpt-5-mini',
    env: (url: string) => ({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${url}/v1` }),
    docsTurn: () => readProviderFixture('openai-responses-search-call.json'),
    webTurn: openaiWebAnswer,
    webTool: { type: 'web_search', filters: { allowed_domains: WEB_DOMAINS } },
    toolsOf: (body: Record<string, unknown>) => body.tools as Array<Record<string, unknown>>,
    answerSchemaOf: (body: Record<string, unknown>) => asRecord(asRecord(body.text).format).schema,
    searches: 1,
    // gpt-5-mini: (1184 + 4210) in at $0.25/M, (214 + 180) out at $2/M, 1 search at $0.01.
    costUsd: (1184 + 4210) * 0.25e-6 + (214 + 180) * 2e-6 + 0.01,
    tokens: { inputTokens: 1184 + 4210, outputTokens: 214 + 180 },
  },
  {
    name: 'anthropic (Messages API)',
    spec: () => 'anthropic:claude-haiku-4-5',
    env: (url: string) => ({ ANTHROPIC_API_KEY: 'ak-contract', ANTHROPIC_BASE_URL: `${url}/v1` }),
    docsTurn: () => readProviderFixture('anthropic-messages-tool-use.json'),
    webTurn: anthropicWebAnswer,
    webTool: { type: 'web_search_20250305', name: 'web_search', allowed_domains: WEB_DOMAINS },
    toolsOf: (body: Record<string, unknown>) => body.tools as Array<Record<string, unknown>>,
    answerSchemaOf: (body: Record<string, unknown>) => asRecord(asRecord(body.output_config).format).schema,
    searches: 2,
    // claude-haiku-4-5: (1290 + 5120) in at $1/M, (58 + 140) out at $5/M, 2 searches at $0.01.
    costUsd: (1290 + 5120) * 1e-6 + (58 + 140) * 5e-6 + 0.02,
    tokens: { inputTokens: 1290 + 5120, outputTokens: 58 + 140 },
  },
];

describe.each(providers)('contract: web search on $name', (provider) => {
  const scenario = (answerJson = webAnswerJson(RETURNED_URL)) =>
    runWebOverLoopback({
      spec: provider.spec,
      env: provider.env,
      script: [jsonResponse(provider.docsTurn()), jsonResponse(provider.webTurn(answerJson))],
    });

  it('sends the provider web search tool with its domain filter in every request, after the docs tools', async () => {
    const { requests } = await scenario();
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      const tools = provider.toolsOf(asRecord(request.body));
      expect(tools.map((tool) => tool.name ?? tool.type)).toEqual(['search_docs', 'read_section', 'read_neighbors', 'web_search']);
      expect(tools[3]).toEqual(provider.webTool);
    }
  });

  it('asks for the docs answer schema plus a required web_citations array of { url, quote }', async () => {
    const { requests } = await scenario();
    const docs = EXPECTED_ANSWER_SCHEMA;
    for (const request of requests) {
      expect(withoutDescriptions(provider.answerSchemaOf(asRecord(request.body)))).toEqual({
        ...docs,
        properties: {
          ...docs.properties,
          web_citations: {
            type: 'array',
            items: {
              type: 'object',
              properties: { url: { type: 'string' }, quote: { type: 'string' } },
              required: ['url', 'quote'],
              additionalProperties: false,
            },
          },
        },
        required: ['text', 'citations', 'abstained', 'web_citations'],
      });
    }
  });

  it('parses the returned sources into the trace and counts the searches', async () => {
    const { run } = await scenario();
    expect(run.trace.web).toEqual({
      allowedDomains: WEB_DOMAINS,
      offered: true,
      reason: 'the run was given the web (--web)',
      searches: provider.searches,
      sources: [{ url: RETURNED_URL, title: RETURNED_TITLE }],
    });
  });

  it('keeps the returned URL, drops the unreturned and the outside ones with their reasons, docs citations unchanged', async () => {
    const { run } = await scenario();
    expect(run.answer).toEqual({
      text: WEB_ANSWER_TEXT,
      citations: EXPECTED_ANSWER.citations,
      abstained: false,
      webCitations: [{ url: RETURNED_URL, title: RETURNED_TITLE, quote: WEB_QUOTE }],
      // Claims are judged against verified docs quotes only: a web quote is checked by its URL,
      // never against page text (no provider returns it), so the web-sourced clause is unsupported.
      claims: [
        { text: 'The default lease is 30 seconds;', supported: true, score: 1, citations: [0] },
        { text: 'on Orbit Cloud it can be raised to 10 minutes.', supported: false, score: 0, citations: [] },
      ],
    });
    expect(run.trace.droppedCitations).toEqual([
      {
        docId: UNRETURNED_URL,
        url: UNRETURNED_URL,
        quote: 'Leases are capped at one hour.',
        reason: `url "${UNRETURNED_URL}" was not among the 1 sources the web search returned in this run`,
      },
      { docId: OUTSIDE_URL, url: OUTSIDE_URL, quote: '', reason: `url "${OUTSIDE_URL}" is outside the allowed domains (orbit.example.com)` },
    ]);
    expect(run.trace.errors).toEqual([]);
  });

  it('counts the per-search fee in the cost', async () => {
    const { run } = await scenario();
    expect(run.usage.webSearches).toBe(provider.searches);
    expect(run.usage.modelCalls).toBe(2);
    expect({ inputTokens: run.usage.inputTokens, outputTokens: run.usage.outputTokens }).toEqual(provider.tokens);
    expect(run.usage.costUsd).toBeCloseTo(provider.costUsd, 12);
  });

  it('an answer whose docs quote fails stands on its verified web citation', async () => {
    const { run } = await scenario(webAnswerJson(RETURNED_URL, 'Leases last 45 minutes by default.'));
    expect(run.answer.abstained).toBe(false);
    expect(run.answer.citations).toEqual([]);
    expect(run.answer.webCitations?.map((citation) => citation.url)).toEqual([RETURNED_URL]);
    expect(run.trace.droppedCitations.map((dropped) => dropped.docId)).toEqual(['leases', UNRETURNED_URL, OUTSIDE_URL]);
  });

  it('an answer citing only URLs the search never returned abstains', async () => {
    const { run } = await scenario(webAnswerJson(UNRETURNED_URL, 'Leases last 45 minutes by default.'));
    expect(run.answer).toEqual({ text: "I couldn't find this in the docs.", citations: [], abstained: true });
    expect(run.trace.abstainReason).toBe('no citation could be verified');
  });
});

/** OpenAI Responses: a docs-only final turn that abstains (no web search item, no annotations). */
const openaiAbstention = {
  id: 'resp_0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  object: 'response',
  created_at: 1764489650,
  status: 'completed',
  error: null,
  incomplete_details: null,
  model: 'gpt-5-mini-2025-08-07',
  output: [
    {
      id: 'msg_0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: JSON.stringify({ text: '', citations: [], abstained: true }), logprobs: [], annotations: [] }],
    },
  ],
  parallel_tool_calls: true,
  store: true,
  tool_choice: 'auto',
  usage: { input_tokens: 1500, input_tokens_details: { cached_tokens: 0 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: 16 }, total_tokens: 1540 },
};

describe('contract: openai web search asks for the sources', () => {
  it('sends include ["web_search_call.action.sources"], so the search call lists the pages it returned', async () => {
    const openai = providers[0] as (typeof providers)[number];
    const { requests } = await runWebOverLoopback({
      spec: openai.spec,
      env: openai.env,
      script: [jsonResponse(openai.docsTurn()), jsonResponse(openai.webTurn(webAnswerJson(RETURNED_URL)))],
    });
    expect(requests.map((request) => asRecord(request.body).include)).toEqual([['web_search_call.action.sources'], ['web_search_call.action.sources']]);
  });
});

describe('contract: --web-fallback on openai (Responses API)', () => {
  const openai = providers[0] as (typeof providers)[number];
  const docsTurn = () => jsonResponse(openai.docsTurn());

  it('runs docs only first, then again with the web when that abstains, and records why', async () => {
    const { run, requests } = await runWebOverLoopback({
      spec: openai.spec,
      env: openai.env,
      fallback: true,
      script: [docsTurn(), jsonResponse(openaiAbstention), docsTurn(), jsonResponse(openaiWebAnswer(webAnswerJson(RETURNED_URL)))],
    });
    const toolNames = requests.map((request) => (asRecord(request.body).tools as Array<Record<string, unknown>>).map((tool) => tool.name ?? tool.type));
    expect(toolNames).toEqual([
      ['search_docs', 'read_section', 'read_neighbors'],
      ['search_docs', 'read_section', 'read_neighbors'],
      ['search_docs', 'read_section', 'read_neighbors', 'web_search'],
      ['search_docs', 'read_section', 'read_neighbors', 'web_search'],
    ]);
    expect(run.webFallbackFrom?.answer.abstained).toBe(true);
    expect(run.webFallbackFrom?.trace.web).toBeUndefined();
    expect(run.trace.web?.reason).toBe('web fallback: the docs-only run abstained (the model abstained)');
    expect([run.trace.web?.offered, run.trace.web?.searches]).toEqual([true, 1]);
    expect(run.answer.webCitations?.map((citation) => citation.url)).toEqual([RETURNED_URL]);
    // Both runs are counted: 4 calls, their tokens, and the one search fee.
    expect([run.usage.modelCalls, run.usage.inputTokens, run.usage.outputTokens, run.usage.webSearches]).toEqual([4, 1184 + 1500 + 1184 + 4210, 214 + 40 + 214 + 180, 1]);
    expect(run.usage.costUsd).toBeCloseTo((1184 + 1500 + 1184 + 4210) * 0.25e-6 + (214 + 40 + 214 + 180) * 2e-6 + 0.01, 12);
  });

  it('keeps the docs-only answer when it does not abstain, and says the web was not offered', async () => {
    const { run, requests } = await runWebOverLoopback({
      spec: openai.spec,
      env: openai.env,
      fallback: true,
      script: [docsTurn(), jsonResponse(readProviderFixture('openai-responses-final-answer.json'))],
    });
    expect(requests).toHaveLength(2);
    expect(run.answer).toEqual(EXPECTED_ANSWER);
    expect(run.webFallbackFrom).toBeUndefined();
    expect(run.trace.web).toEqual({ allowedDomains: WEB_DOMAINS, offered: false, reason: 'web fallback not needed: the docs-only run answered', searches: 0, sources: [] });
    expect(run.usage.webSearches).toBeUndefined();
  });
});
