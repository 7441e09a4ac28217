import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agenticRun } from '../agent/run.ts';
import type { ToolValue } from '../agent/session/search-session.ts';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { bareAbstentionTurns, closestAnswerTurns, MARKED_ANSWER_TEXT, markedAnswerTurns, PAYLOAD_QUESTION } from '../testing/orbit-answers.ts';
import { createAtlasMcpServer } from './server.ts';
import { connectInMemory } from './test-client.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

const QUESTION = 'What does ORB-1202 mean?';

describe('ask', () => {
  it('returns the run\'s answer, verified citations with links, and its trace summary; its searches leave the session budget alone', async () => {
    // A scripted run that answers with citations (what the offline planner answers is its own tests' business).
    const mcp = await connectInMemory(createAtlasMcpServer({ index, ask: { model: createScriptedModel(markedAnswerTurns()), modelSpec: 'scripted', now: () => 0 } }));
    const progress: Progress[] = [];
    const result = (await mcp.client.callTool({ name: 'ask', arguments: { question: PAYLOAD_QUESTION } }, CallToolResultSchema, { onprogress: (update) => progress.push(update) })) as CallToolResult;
    const run = await agenticRun(PAYLOAD_QUESTION, { model: createScriptedModel(markedAnswerTurns()), index, maxSearches: 6, now: () => 0 });
    expect(run.answer.abstained).toBe(false);
    expect(result.isError).toBeUndefined();
    const answer = result.structuredContent as ToolValue;
    expect(answer.answer).toBe(run.answer.text);
    expect(answer.citations).toEqual(
      run.answer.citations.map((citation) => ({
        doc_id: citation.docId,
        chunk_id: citation.chunkId,
        quote: citation.quote,
        heading_path: citation.headingPath.join(' > '),
        source_path: citation.sourcePath,
        start_line: citation.startLine,
        end_line: citation.endLine,
        uri: `atlas://chunk/${encodeURIComponent(citation.chunkId)}`,
      })),
    );
    expect(run.answer.claims?.length).toBeGreaterThan(0);
    expect(answer.claims).toEqual(run.answer.claims);
    expect(answer.trace).toMatchObject({
      model: 'scripted',
      stop_reason: run.trace.stopReason,
      searches: run.trace.steps.map((step) => ({ query: step.query, new_doc_ids: step.newDocIds })),
      reads: run.trace.reads.map((read) => ({ tool: read.tool, chunk_id: read.chunkId, found: read.found })),
      model_calls: run.usage.modelCalls,
      cost_usd: null,
      latency_ms: 0,
    });
    const links = result.content.filter((part) => part.type === 'resource_link').map((part) => part.type === 'resource_link' && part.uri);
    expect(links).toEqual([...new Set(answer.citations.map((citation: ToolValue) => citation.uri))]);
    expect(progress.map((update) => update.message)).toEqual(run.trace.steps.map((step, position) => `search ${position + 1} of 6: ${step.query}`));
    expect((await mcp.call('search_docs', { query: 'ORB-1202' })).structuredContent).toMatchObject({ budget: 'search 1 of 6, 5 left' });
    await mcp.close();
  });

  it('returns the closest passages the closest model names when the model abstains without any', async () => {
    const { turns, closest } = bareAbstentionTurns();
    const mcp = await connectInMemory(createAtlasMcpServer({ index, ask: { model: createScriptedModel(turns), closestModel: createScriptedModel(closest), modelSpec: 'scripted', now: () => 0 } }));
    const answer = (await mcp.call('ask', { question: PAYLOAD_QUESTION })).structuredContent as ToolValue;
    expect([answer.abstained, answer.closest.map((passage: ToolValue) => [passage.chunk_id, passage.sentences.length])]).toEqual([true, [['error-codes#4', 2]]]);
    await mcp.close();
  });

  it('refuses a version other than the fixed one, and a blank question, as error results', async () => {
    const mcp = await connectInMemory(createAtlasMcpServer({ index, filter: { version: '3.x' }, ask: { model: createScriptedModel([]), modelSpec: 'scripted' } }));
    const refused = await mcp.call('ask', { question: QUESTION, version: '2.x' });
    expect(refused).toEqual({
      content: [{ type: 'text', text: 'version "2.x" refused: this server only searches version "3.x" (and pages for all versions). Omit version, or pass "3.x". The question was not run.' }],
      isError: true,
    });
    expect(await mcp.call('ask', { question: '   ' })).toEqual({
      content: [{ type: 'text', text: 'MCP error -32602: Input validation error: Invalid arguments for tool ask: question must be a non-empty text, e.g. "How do I set the lease duration?" at question' }],
      isError: true,
    });
    await mcp.close();
  });

  it('answers a run whose model failed with an error result naming the cause', async () => {
    const failing = createScriptedModel([
      () => {
        throw new Error('provider down');
      },
    ]);
    const mcp = await connectInMemory(createAtlasMcpServer({ index, ask: { model: failing, modelSpec: 'scripted' } }));
    const result = await mcp.call('ask', { question: QUESTION });
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^ask failed: the run of model "scripted" ended without an answer \(stop: error\): .*provider down.*\. Ask again later, or search with search_docs and read_section yourself\.$/,
    );
    await mcp.close();
  });

  it('returns an answer\'s [n] markers as they are, citation n being citations[n - 1]', async () => {
    const mcp = await connectInMemory(createAtlasMcpServer({ index, ask: { model: createScriptedModel(markedAnswerTurns()), modelSpec: 'scripted', now: () => 0 } }));
    const answer = (await mcp.call('ask', { question: PAYLOAD_QUESTION })).structuredContent as ToolValue;
    expect([answer.answer, answer.citations.map((citation: ToolValue) => citation.chunk_id), answer.closest]).toEqual([MARKED_ANSWER_TEXT, ['api-results#3', 'error-codes#4'], undefined]);
    await mcp.close();
  });

  it('returns the closest passages of an abstention that found no direct answer, structured and as text under "Closest passages in the docs", with a link each', async () => {
    const mcp = await connectInMemory(createAtlasMcpServer({ index, ask: { model: createScriptedModel(closestAnswerTurns()), modelSpec: 'scripted', now: () => 0 } }));
    const result = await mcp.call('ask', { question: PAYLOAD_QUESTION });
    expect(result.isError).toBeUndefined();
    const answer = result.structuredContent as ToolValue;
    expect([answer.answer, answer.abstained, answer.citations, answer.trace.abstain_reason]).toEqual([
      "I couldn't find a direct answer in the docs.",
      true,
      [],
      'the model abstained: no direct answer',
    ]);
    expect(answer.closest).toEqual([
      {
        doc_id: 'error-codes',
        chunk_id: 'error-codes#4',
        heading_path: 'Error codes > 12xx Payloads and results > ORB-1202 PayloadTooLarge',
        source_path: 'error-codes.md',
        start_line: 90,
        end_line: 91,
        sentences: ["The job's arguments or a flow step's result are larger than the payload limit.", 'For arguments,\n`enqueue` raises it at once.'],
        uri: 'atlas://chunk/error-codes%234',
      },
    ]);
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify(answer) },
      {
        type: 'text',
        text: [
          'Closest passages in the docs:',
          '1. Error codes > 12xx Payloads and results > ORB-1202 PayloadTooLarge — error-codes.md:90-91 (atlas://chunk/error-codes%234)',
          '   "The job\'s arguments or a flow step\'s result are larger than the payload limit."',
          '   "For arguments, `enqueue` raises it at once."',
        ].join('\n'),
      },
      { type: 'resource_link', uri: 'atlas://chunk/error-codes%234', name: 'error-codes#4', title: 'Error codes > 12xx Payloads and results > ORB-1202 PayloadTooLarge', mimeType: 'text/markdown' },
    ]);
    await mcp.close();
  });
});
