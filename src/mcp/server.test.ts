import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchSession, type ToolValue } from '../agent/session/search-session.ts';
import { searchDocsInput } from '../agent/session/tools.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createAtlasMcpServer, type AtlasMcpServerOptions } from './server.ts';
import { connectInMemory, type LinkedClient } from './test-client.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

/** A client connected to a fresh server (a fresh MCP session) over an in-memory pair. */
async function connect(options: Omit<AtlasMcpServerOptions, 'index'> = {}): Promise<LinkedClient> {
  return connectInMemory(createAtlasMcpServer({ index, ...options }));
}

const structured = (result: CallToolResult) => result.structuredContent as ToolValue;
const errorText = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('');
};
/** What the agent's own session shows for the same calls: the oracle of the MCP results. */
const withUris = (results: ToolValue[]) => results.map((result) => ({ ...result, uri: `atlas://chunk/${encodeURIComponent(result.chunk_id)}` }));

describe('tools/list', () => {
  it('lists the four tools with the agent\'s input schemas, output schemas and read-only annotations', async () => {
    const mcp = await connect({ maxSearches: 4, filter: { version: '3.x' }, ask: { model: (await import('../models/offline/index.ts')).createOfflineModel(), modelSpec: 'offline' } });
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_docs', 'read_section', 'read_neighbors', 'ask']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools[0]!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(['query', 'version', 'page']);
    expect(search.inputSchema.properties?.query).toEqual({ type: 'string', minLength: 1, description: searchDocsInput.shape.query.description });
    expect(search.description).toContain('Budget: 4 searches per session, duplicate queries included; every result says where you are ("search 2 of 4")');
    expect(search.description).toContain('Fixed by the server: version 3.x (and pages for all versions); public pages only.');
    expect(tools[1]!.inputSchema.required).toEqual(['chunk_id']);
    expect(Object.keys(tools[1]!.inputSchema.properties ?? {})).toEqual(['chunk_id', 'offset', 'query']);
    expect(tools[2]!.inputSchema.required).toEqual(['chunk_id']);
    expect(tools[3]!.inputSchema.required).toEqual(['question']);
    expect(mcp.client.getInstructions()).toContain('Budget: 4 searches per session');
    await mcp.close();
  });
});

describe('search_docs over one MCP session', () => {
  it('skips in the second search what the first showed, exactly as the agent\'s session does, and counts the budget', async () => {
    const mcp = await connect();
    const oracle = new SearchSession({ index });
    const first = await mcp.call('search_docs', { query: 'lease timeout' });
    const expectedFirst = await oracle.searchDocs({ query: 'lease timeout' });
    expect(first.isError).toBeUndefined();
    expect(structured(first).results).toEqual(expectedFirst.ok && withUris(expectedFirst.value.results));
    expect(structured(first).budget).toBe('search 1 of 6, 5 left');
    const shown = new Set((structured(first).results as ToolValue[]).map((result) => result.chunk_id));
    expect(shown.size).toBe(5);

    const second = await mcp.call('search_docs', { query: 'lease duration seconds' });
    const expectedSecond = await oracle.searchDocs({ query: 'lease duration seconds' });
    const results = structured(second).results as ToolValue[];
    expect(results).toEqual(expectedSecond.ok && withUris(expectedSecond.value.results));
    expect(results.filter((result) => shown.has(result.chunk_id))).toEqual([]);
    expect(structured(second).note).toMatch(/^[1-5] already-seen passages? skipped: /);
    expect(structured(second)).toMatchObject({ searches_used: 2, max_searches: 6, budget: 'search 2 of 6, 4 left' });
    await mcp.close();
  });

  it('links every passage as a resource that reads it', async () => {
    const mcp = await connect();
    const result = await mcp.call('search_docs', { query: 'ORB-1202' });
    const links = result.content.filter((part) => part.type === 'resource_link');
    const ids = (structured(result).results as ToolValue[]).map((hit) => hit.chunk_id);
    expect(links.map((link) => link.type === 'resource_link' && link.uri)).toEqual(ids.map((id) => `atlas://chunk/${id.replace('#', '%23')}`));
    expect(result.content[0]).toEqual({ type: 'text', text: JSON.stringify(result.structuredContent) });
    const read = await mcp.client.readResource({ uri: (links[0] as { uri: string }).uri });
    const chunk = (await index.getChunk(ids[0]!))!;
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: `${'#'.repeat(chunk.headingPath.length)} ${chunk.heading}\n\n${chunk.text}` });
    await mcp.close();
  });

  it('refuses a repeated query as an error result that counts toward the budget', async () => {
    const mcp = await connect();
    await mcp.call('search_docs', { query: 'lease timeout' });
    const again = await mcp.call('search_docs', { query: 'Timeout LEASE' });
    expect(errorText(again)).toBe('duplicate query: search for what is still missing, or ask for page 2 of it. The refused search counted (search 2 of 6, 4 left).');
    const page2 = await mcp.call('search_docs', { query: 'lease timeout', page: 2 });
    expect(structured(page2).budget).toBe('search 3 of 6, 3 left');
    await mcp.close();
  });

  it('announces the budget in each result and refuses searches past it', async () => {
    const mcp = await connect({ maxSearches: 2 });
    expect(structured(await mcp.call('search_docs', { query: 'retries backoff' })).budget).toBe('search 1 of 2, 1 left');
    expect(structured(await mcp.call('search_docs', { query: 'dead letters' })).budget).toBe('search 2 of 2, none left: answer from the passages you have');
    expect(errorText(await mcp.call('search_docs', { query: 'heartbeats' }))).toBe('search budget exhausted (2 searches used): answer now from the passages you have.');
    // A new MCP session has a budget of its own.
    const other = await connect({ maxSearches: 2 });
    expect(structured(await other.call('search_docs', { query: 'heartbeats' })).budget).toBe('search 1 of 2, 1 left');
    await Promise.all([mcp.close(), other.close()]);
  });

  it('answers concurrent calls one at a time: two parallel searches never show the same passage', async () => {
    const mcp = await connect();
    const [a, b] = await Promise.all([mcp.call('search_docs', { query: 'lease timeout' }), mcp.call('search_docs', { query: 'lease duration' })]);
    const ids = [...(structured(a).results as ToolValue[]), ...(structured(b).results as ToolValue[])].map((result) => result.chunk_id);
    expect(ids.length).toBeGreaterThan(5);
    expect(new Set(ids).size).toBe(ids.length);
    expect([structured(a).budget, structured(b).budget]).toEqual(['search 1 of 6, 5 left', 'search 2 of 6, 4 left']);
    await mcp.close();
  });
});

describe('enforced filters', () => {
  it('refuses a version argument other than the fixed one, without counting it; the fixed one is accepted', async () => {
    const mcp = await connect({ filter: { version: '3.x' } });
    expect(errorText(await mcp.call('search_docs', { query: 'lease timeout', version: '2.x' }))).toBe(
      'version "2.x" refused: this server only searches version "3.x" (and pages for all versions). Omit version, or pass "3.x". This search was not run and did not count (search 0 of 6, 6 left).',
    );
    const same = await mcp.call('search_docs', { query: 'lease timeout', version: '3.x' });
    expect(structured(same).budget).toBe('search 1 of 6, 5 left');
    expect((structured(same).results as ToolValue[]).map((result) => result.applies_to).filter((line) => line !== '3.x' && line !== 'all')).toEqual([]);
    await mcp.close();
  });

  it('lets a version argument narrow an unfixed server', async () => {
    const mcp = await connect();
    const result = await mcp.call('search_docs', { query: 'lease timeout environment variable', version: '2.x' });
    const lines = (structured(result).results as ToolValue[]).map((hit) => hit.applies_to);
    expect(lines).toContain('2.x');
    expect(lines.filter((line) => line !== '2.x' && line !== 'all')).toEqual([]);
    await mcp.close();
  });

  it('refuses a version that is not a release line of the index (a typo would match only the pages for all versions)', async () => {
    const mcp = await connect();
    expect(errorText(await mcp.call('search_docs', { query: 'lease timeout', version: '3' }))).toBe(
      'version "3" is not a release line of these docs (known: 2.x, 3.x). Pass one of them, or omit version. This search was not run and did not count (search 0 of 6, 6 left).',
    );
    await mcp.close();
  });

  it('answers a guessed chunk id outside the filter "not found", exactly like an unknown id, in tools and resources', async () => {
    const filter: SearchFilter = { version: '3.x' };
    const hidden = (await index.search('ORBIT_LEASE_TIMEOUT', { k: 20 })).find((hit) => hit.appliesTo === '2.x')!.chunkId;
    expect(await index.getChunk(hidden)).toBeDefined();
    expect(await index.getChunk(hidden, filter)).toBeUndefined();
    const mcp = await connect({ filter });
    for (const chunkId of [hidden, 'no-such-page#0']) {
      expect(errorText(await mcp.call('read_section', { chunk_id: chunkId }))).toBe(`chunk not found: ${chunkId}. Use a chunk_id returned by search_docs.`);
      expect(errorText(await mcp.call('read_neighbors', { chunk_id: chunkId }))).toBe(`chunk not found: ${chunkId}. Use a chunk_id returned by search_docs.`);
      await expect(mcp.client.readResource({ uri: `atlas://chunk/${encodeURIComponent(chunkId)}` })).rejects.toThrow(
        `MCP error -32002: chunk not found: ${chunkId}. Use a chunk_id returned by search_docs.`,
      );
      const docId = chunkId.split('#')[0]!;
      await expect(mcp.client.readResource({ uri: `atlas://doc/${docId}` })).rejects.toThrow(`MCP error -32002: document not found: ${docId}. Use a doc_id returned by search_docs.`);
    }
    await mcp.close();
  });
});

describe('reading', () => {
  it('pages a long section with read_section and links it', async () => {
    const mcp = await connect();
    const chunk = (await index.getChunk('error-codes#1'))!;
    const first = await mcp.call('read_section', { chunk_id: 'error-codes#1' });
    const page = structured(first);
    expect(page).toMatchObject({ chunk_id: 'error-codes#1', offset: 0, complete: page.next_offset === null, uri: 'atlas://chunk/error-codes%231' });
    expect(chunk.text.startsWith(page.text)).toBe(true);
    expect(first.content.filter((part) => part.type === 'resource_link')).toHaveLength(1);
    expect(errorText(await mcp.call('read_section', { chunk_id: 'error-codes#1', offset: chunk.text.length + 5 }))).toContain(`offset ${chunk.text.length + 5}`);
    await mcp.close();
  });

  it('reads the neighbours of a chunk', async () => {
    const mcp = await connect();
    const result = await mcp.call('read_neighbors', { chunk_id: 'leases#1' });
    expect((structured(result).chunks as ToolValue[]).map((chunk) => [chunk.chunk_id, chunk.uri])).toEqual([
      ['leases#0', 'atlas://chunk/leases%230'],
      ['leases#2', 'atlas://chunk/leases%232'],
    ]);
    await mcp.close();
  });

  it('reads a whole document as one markdown resource, its sections in order', async () => {
    const mcp = await connect();
    const read = await mcp.client.readResource({ uri: 'atlas://doc/leases' });
    const content = read.contents[0] as unknown as { text: string; _meta: { chunk_ids: string[] } };
    const ids = content._meta.chunk_ids;
    expect(ids[0]).toBe('leases#0');
    const chunks = await Promise.all(ids.map(async (id) => (await index.getChunk(id))!));
    expect(chunks.at(-1)!.nextChunkId).toBeUndefined();
    expect(chunks.map((chunk) => chunk.ord)).toEqual(ids.map((_, position) => position));
    let at = 0;
    for (const chunk of chunks) {
      const found = content.text.indexOf(chunk.text.trim(), at);
      expect(found).toBeGreaterThanOrEqual(at);
      at = found + chunk.text.trim().length;
    }
    expect(content.text.startsWith('# Leases\n\n')).toBe(true);
    expect(content.text).toContain('\n\n## The lease setting\n\n');
    await mcp.close();
  });
});

describe('call log', () => {
  it('writes one line per call: tool, arguments, outcome', async () => {
    const lines: string[] = [];
    const mcp = await connect({ maxSearches: 1, log: (line) => lines.push(line) });
    await mcp.call('search_docs', { query: 'lease' });
    await mcp.call('search_docs', { query: 'retries' });
    await mcp.call('read_neighbors', { chunk_id: 'leases#1' });
    expect(lines).toEqual([
      'atlas mcp: search_docs {"query":"lease"} -> ok (search 1 of 1, none left: answer from the passages you have)\n',
      'atlas mcp: search_docs {"query":"retries"} -> error: search budget exhausted (1 searches used): answer now from the passages you have.\n',
      'atlas mcp: read_neighbors {"chunk_id":"leases#1"} -> ok\n',
    ]);
    await mcp.close();
  });
});

describe('call log of a huge argument', () => {
  it('cuts each text argument and the error text to 200 characters with a marker: a 100 KB query is a short line', async () => {
    const lines: string[] = [];
    const mcp = await connect({ maxSearches: 2, log: (line) => lines.push(line) });
    const query = `lease ${'q'.repeat(100_000)}`;
    await mcp.call('search_docs', { query });
    await mcp.call('read_section', { chunk_id: `missing${'#'.repeat(100_000)}` });
    expect(lines[0]).toBe(`atlas mcp: search_docs {"query":"lease ${'q'.repeat(194)}... [99806 more characters]"} -> ok (search 1 of 2, 1 left)\n`);
    expect(lines[1]!.startsWith(`atlas mcp: read_section {"chunk_id":"missing${'#'.repeat(193)}... [99807 more characters]"} -> error: `)).toBe(true);
    expect(lines[1]!.length).toBeLessThan(700);
    await mcp.close();
  });
});

describe('errors are tool results, never protocol errors', () => {
  it('answers bad arguments with isError and the field at fault', async () => {
    const mcp = await connect();
    expect(errorText(await mcp.call('search_docs', { query: 3 }))).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool search_docs: Invalid input: expected string, received number at query',
    );
    expect(errorText(await mcp.call('read_section', { chunk_id: 'leases#1', offset: -1 }))).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool read_section: offset must be a whole number of characters from 0: use 0 for the start, or the next_offset of the page you read last at offset',
    );
    expect(errorText(await mcp.call('no_such_tool', {}))).toBe('MCP error -32602: Tool no_such_tool not found');
    // The session is still usable after them, and they used no budget.
    expect(structured(await mcp.call('search_docs', { query: 'lease' })).budget).toBe('search 1 of 6, 5 left');
    await mcp.close();
  });
});
