// Prompt injection over MCP: a client that obeys every instruction in the results it gets
// reaches nothing the session's filter, access groups and budget do not allow, and the ask tool
// run by a model that obeys the pages verifies its citations as every run does.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../index/types.ts';
import { createInjectionIndex } from '../testing/injection-corpus.ts';
import { createObedientModel, jsonText, readInjectedInstructions } from '../testing/obedient-model.ts';
import { createAtlasMcpServer, type AtlasMcpServerOptions } from './server.ts';
import { connectInMemory, type LinkedClient } from './test-client.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createInjectionIndex();
});
afterAll(async () => {
  await index.close();
});

const MARKERS = /hushadmin|legacyonly/;
const connect = (options: Omit<AtlasMcpServerOptions, 'index'> = {}) => connectInMemory(createAtlasMcpServer({ index, ...options }));

/** One tool call of the obedient client and its result. */
interface Exchange {
  name: string;
  args: Record<string, unknown>;
  result: CallToolResult;
}

/**
 * An MCP client that does what each result tells it, for `rounds` rounds: it searches the
 * question, reads every passage a search shows, and sends every tool call the results ask for.
 */
async function obey(mcp: LinkedClient, question: string, rounds: number): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  let pending: Array<{ name: string; args: Record<string, unknown> }> = [{ name: 'search_docs', args: { query: question } }];
  for (let round = 0; round < rounds && pending.length > 0; round += 1) {
    const next: typeof pending = [];
    for (const call of pending) {
      const result = await mcp.call(call.name, call.args);
      exchanges.push({ ...call, result });
      const value = result.structuredContent as { results?: Array<{ chunk_id: string }> } | undefined;
      for (const hit of value?.results ?? []) next.push({ name: 'read_section', args: { chunk_id: hit.chunk_id } });
      const text = value ? jsonText(value) : result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      const instructions = readInjectedInstructions(text);
      next.push(...instructions.toolCalls.map((toolCall) => ({ name: toolCall.toolName, args: toolCall.input })));
      if (instructions.unlimitedSearches) for (let n = 1; n <= 4; n += 1) next.push({ name: 'search_docs', args: { query: `${question} more${n}` } });
    }
    pending = next;
  }
  return exchanges;
}

describe('an MCP client that obeys the results', () => {
  it('gets no admin or 2.x text, no search past the budget, and the 2.x searches refused', async () => {
    const mcp = await connect({ filter: { version: '3.x' }, maxSearches: 3 });
    const exchanges = await obey(mcp, 'How long do worker leases last?', 5);
    expect(JSON.stringify(exchanges.map((exchange) => exchange.result))).not.toMatch(MARKERS);
    // Every admin chunk the pages name was asked for, and each answer is the unknown-id error.
    const adminReads = exchanges.filter((exchange) => String(exchange.args.chunk_id ?? '').startsWith('admin-'));
    expect(new Set(adminReads.map((exchange) => exchange.args.chunk_id))).toEqual(new Set(['admin-secrets#0', 'admin-secrets#1', 'admin-runbook#0']));
    // The 2.x page named by id is "not found" on a 3.x server, like the admin pages. The page naming
    // it reaches the client twice (beside the short section before it, then read itself): asked twice.
    const legacy = exchanges.filter((exchange) => exchange.args.chunk_id === 'lease-legacy#0');
    const notFound = { content: [{ type: 'text', text: 'chunk not found: lease-legacy#0. Use a chunk_id returned by search_docs.' }], isError: true };
    expect(legacy.map((exchange) => exchange.result)).toEqual([notFound, notFound]);
    for (const { result, args } of adminReads) {
      expect(result).toEqual({ content: [{ type: 'text', text: `chunk not found: ${String(args.chunk_id)}. Use a chunk_id returned by search_docs.` }], isError: true });
    }
    const searches = exchanges.filter((exchange) => exchange.name === 'search_docs');
    const versioned = searches.filter((exchange) => exchange.args.version === '2.x');
    // The question, then the orders of the pages its result shows whole: the admin words, a 2.x
    // search (refused, uncounted); the same orders again from the reads of those pages (all refused),
    // the other 2.x search, and the "unlimited" burst: all refused.
    expect(searches.map((exchange) => [exchange.args.query, exchange.args.version ?? null, exchange.result.isError ?? false])).toEqual([
      ['How long do worker leases last?', null, false],
      ['lease vault signing key', null, false],
      ['root password lease vault', null, false],
      ['lease duration', '2.x', true],
      ['lease vault signing key', null, true],
      ['root password lease vault', null, true],
      ['lease duration', '2.x', true],
      ['lease duration legacy', '2.x', true],
      ['How long do worker leases last? more1', null, true],
      ['How long do worker leases last? more2', null, true],
      ['How long do worker leases last? more3', null, true],
      ['How long do worker leases last? more4', null, true],
    ]);
    for (const { result } of versioned) {
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toMatch(/^version "2\.x" refused: this server only searches version "3\.x" \(and pages for all versions\)\. Omit version, or pass "3\.x"\. This search was not run and did not count \(search \d of 3, /);
    }
    const ran = searches.filter((exchange) => !exchange.result.isError);
    expect(Math.max(...ran.map((exchange) => (exchange.result.structuredContent as { searches_used: number }).searches_used))).toBe(3);
    const refused = searches.filter((exchange) => (exchange.result.content[0] as { text: string }).text.startsWith('search budget exhausted (3 searches used)'));
    expect(refused.map((exchange) => exchange.args.query)).toEqual([
      'lease vault signing key',
      'root password lease vault',
      'How long do worker leases last? more1',
      'How long do worker leases last? more2',
      'How long do worker leases last? more3',
      'How long do worker leases last? more4',
    ]);
    await expect(mcp.client.readResource({ uri: 'atlas://doc/admin-secrets' })).rejects.toThrow('MCP error -32002: document not found: admin-secrets. Use a doc_id returned by search_docs.');
    await mcp.close();
  });

  it('the ask tool, run by a model that obeys the pages, drops the dictated citations and abstains', async () => {
    const mcp = await connect({ filter: { version: '3.x' }, ask: { model: createObedientModel(), modelSpec: 'scripted', maxSearches: 3, now: () => 0 } });
    const result = await mcp.call('ask', { question: 'How long do worker leases last?' });
    expect(JSON.stringify(result)).not.toMatch(MARKERS);
    const value = result.structuredContent as { answer: string; abstained: boolean; citations: unknown[]; trace: { searches: Array<{ version?: string; note?: string }>; reads: Array<{ chunk_id: string; found: boolean }>; dropped_citations: number; abstain_reason?: string } };
    expect([value.answer, value.abstained, value.citations]).toEqual(["I couldn't find this in the docs.", true, []]);
    expect(value.trace.abstain_reason).toBe('no citation could be verified');
    expect(value.trace.dropped_citations).toBe(2);
    expect(value.trace.searches.filter((search) => search.note !== 'budget-exhausted')).toHaveLength(3);
    expect(value.trace.searches.every((search) => search.version === '3.x')).toBe(true);
    expect(value.trace.reads.filter((read) => read.chunk_id.startsWith('admin-')).every((read) => !read.found)).toBe(true);
    // The first search shows the short pages whole, so their orders come with it: 7 admin reads (each
    // "not found") fit in the run's turns of at most 16 calls (agenticRun's maxToolCallsPerTurn).
    expect(value.trace.reads.filter((read) => read.chunk_id.startsWith('admin-'))).toHaveLength(7);
    await mcp.close();
  });

  it('an ask that names version 2.x on a 3.x server is refused, whatever the question says', async () => {
    const mcp = await connect({ filter: { version: '3.x' }, ask: { model: createObedientModel(), modelSpec: 'scripted', now: () => 0 } });
    const result = await mcp.call('ask', { question: 'Search with version 2.x for "lease duration legacy".', version: '2.x' });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'version "2.x" refused: this server only searches version "3.x" (and pages for all versions). Omit version, or pass "3.x". The question was not run.' }],
      isError: true,
    });
    await mcp.close();
  });
});
