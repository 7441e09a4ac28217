import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/index.ts';
import type { ToolValue } from '../agent/session/search-session.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import { createTestDoc } from '../index/test-docs.ts';
import type { IndexBackend } from '../index/types.ts';
import { createAtlasMcpServer, type AtlasMcpServerOptions } from './server.ts';
import { connectInMemory } from './test-client.ts';

// A small corpus with an acl page and a public page with one restricted section. Every restricted
// text carries a marker word ("hushpay", "hushops"): the text a leak would show.
const docs = [
  createTestDoc({ docId: 'handbook', title: 'Handbook', sections: ['Payroll runs monthly; ask finance about salary questions.', { heading: 'Vacation', text: 'Vacation days accrue monthly.' }] }),
  createTestDoc({
    docId: 'payroll',
    title: 'Payroll runbook',
    labels: { acl: ['finance'] },
    sections: ['The payroll salary export hushpay runs on the 25th.', { heading: 'Salary bands', text: 'Salary bands hushpay are reviewed yearly.' }],
  }),
  createTestDoc({
    docId: 'ops',
    title: 'Operations',
    sections: [
      'Operations overview of the payroll servers.',
      { heading: 'Break-glass', text: 'The payroll break-glass password hushops is in the vault.', labels: { acl: ['staff'] } },
      { heading: 'Backups', text: 'Payroll backups run nightly.' },
    ],
  }),
];

let index: IndexBackend;
beforeAll(async () => {
  index = createSqliteIndex({ path: ':memory:' });
  await index.ingest(docs);
});
afterAll(async () => {
  await index.close();
});

const connect = (options: Omit<AtlasMcpServerOptions, 'index'> = {}) => connectInMemory(createAtlasMcpServer({ index, ...options }));
const everything = (result: CallToolResult) => JSON.stringify(result);
const ids = (result: CallToolResult) => ((result.structuredContent as ToolValue).results as ToolValue[]).map((hit) => hit.chunk_id).sort();

describe('acl pages over MCP', () => {
  it('keeps restricted pages and sections out of every tool and resource for an anonymous session', async () => {
    const mcp = await connect();
    const search = await mcp.call('search_docs', { query: 'payroll salary hushpay hushops' });
    expect(ids(search)).toEqual(['handbook#0', 'ops#0', 'ops#2']);
    for (const chunkId of ['payroll#0', 'ops#1', 'nope#0']) {
      expect(everything(await mcp.call('read_section', { chunk_id: chunkId }))).toBe(
        JSON.stringify({ content: [{ type: 'text', text: `chunk not found: ${chunkId}. Use a chunk_id returned by search_docs.` }], isError: true }),
      );
    }
    // read_section of a public chunk does not link to its restricted neighbour.
    const before = (await mcp.call('read_section', { chunk_id: 'ops#0' })).structuredContent as ToolValue;
    expect([before.prev_chunk_id, before.next_chunk_id]).toEqual([null, null]);
    // Its only neighbour is restricted: none is shown (neighbours are the adjacent chunks that pass the filter).
    expect(((await mcp.call('read_neighbors', { chunk_id: 'ops#2' })).structuredContent as ToolValue).chunks).toEqual([]);
    await expect(mcp.client.readResource({ uri: 'atlas://doc/payroll' })).rejects.toThrow('MCP error -32002: document not found: payroll. Use a doc_id returned by search_docs.');
    await expect(mcp.client.readResource({ uri: 'atlas://chunk/ops%231' })).rejects.toThrow('MCP error -32002: chunk not found: ops#1. Use a chunk_id returned by search_docs.');
    const ops = await mcp.client.readResource({ uri: 'atlas://doc/ops' });
    expect(ops.contents[0]).toMatchObject({
      text: '# Operations\n\nOperations overview of the payroll servers.\n\n## Backups\n\nPayroll backups run nightly.\n',
      _meta: { chunk_ids: ['ops#0', 'ops#2'] },
    });
    expect((await mcp.client.readResource({ uri: 'atlas://chunk/ops%232' })).contents[0]!._meta).toMatchObject({ prev: null, next: null });
    await mcp.close();
  });

  it('shows a principal the pages of its groups, and only the groups the filter and the principal share', async () => {
    const finance = await connect({ principal: { groups: ['finance'] } });
    expect(ids(await finance.call('search_docs', { query: 'payroll salary hushpay hushops' }))).toEqual(['handbook#0', 'ops#0', 'ops#2', 'payroll#0', 'payroll#1']);
    expect(((await finance.client.readResource({ uri: 'atlas://doc/payroll' })).contents[0] as { text: string }).text).toBe(
      '# Payroll runbook\n\nThe payroll salary export hushpay runs on the 25th.\n\n## Salary bands\n\nSalary bands hushpay are reviewed yearly.\n',
    );
    // The command line allows finance and staff; the token's principal is staff only: staff wins.
    const staff = await connect({ filter: { principal: { groups: ['finance', 'staff'] } }, principal: { groups: ['staff', 'admins'] } });
    expect(ids(await staff.call('search_docs', { query: 'payroll salary hushpay hushops' }))).toEqual(['handbook#0', 'ops#0', 'ops#1', 'ops#2']);
    const { tools } = await staff.client.listTools();
    expect(tools[0]!.description).toContain('Fixed by the server: restricted pages of groups staff and public pages.');
    await Promise.all([finance.close(), staff.close()]);
  });

  it('runs ask under the same access: an anonymous question never sees the restricted text', async () => {
    const mcp = await connect({ ask: { model: createOfflineModel(), modelSpec: 'offline', now: () => 0 } });
    const result = await mcp.call('ask', { question: 'When does the payroll salary export run?' });
    expect(result.isError).toBeUndefined();
    expect(everything(result)).not.toMatch(/hushpay|hushops/);
    const answer = result.structuredContent as ToolValue;
    expect(answer.citations.map((citation: ToolValue) => citation.doc_id).filter((docId: string) => docId === 'payroll')).toEqual([]);
    const finance = await connect({ principal: { groups: ['finance'] }, ask: { model: createOfflineModel(), modelSpec: 'offline', now: () => 0 } });
    const allowed = (await finance.call('ask', { question: 'When does the payroll salary export run?' })).structuredContent as ToolValue;
    expect(allowed.citations.map((citation: ToolValue) => citation.doc_id)).toContain('payroll');
    await Promise.all([mcp.close(), finance.close()]);
  });
});
