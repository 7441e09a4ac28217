import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/index.ts';
import type { ToolValue } from '../agent/session/search-session.ts';
import { searchDocsInput } from '../agent/session/tools.ts';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { absentNulls, nullableOptionals } from './inputs.ts';
import { createAtlasMcpServer } from './server.ts';
import { connectInMemory } from './test-client.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

describe('null for an optional tool argument (OpenAI strict mode clients)', () => {
  it('is absent for search_docs, read_section and ask, as in the agent\'s own tools; null for a required argument is still refused', async () => {
    const mcp = await connectInMemory(createAtlasMcpServer({ index, ask: { model: createOfflineModel(), modelSpec: 'offline', now: () => 0 } }));
    const search = await mcp.call('search_docs', { query: 'ORB-1202', version: null, page: null });
    expect(search.isError).toBeUndefined();
    expect(((search.structuredContent as ToolValue).results as ToolValue[])[0]?.chunk_id).toBe('error-codes#4');
    const read = await mcp.call('read_section', { chunk_id: 'error-codes#4', offset: null, query: null });
    expect([read.isError, (read.structuredContent as ToolValue).chunk_id]).toEqual([undefined, 'error-codes#4']);
    // A question the offline planner answers directly (one sentence), so the run behind the null is seen to answer.
    const ask = await mcp.call('ask', { question: 'Which error is raised when a job\'s arguments are larger than the payload limit?', version: null });
    const answer = ask.structuredContent as ToolValue;
    expect([ask.isError, answer.abstained, answer.answer]).toEqual([undefined, false, 'Arguments larger than the payload limit raise `orbit.errors.PayloadTooLarge` (`ORB-1202`). [1]']);
    expect((answer.citations as ToolValue[]).map((citation) => citation.chunk_id)).toEqual(['api-client#3']);
    const missing = await mcp.call('read_section', { chunk_id: null });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('chunk_id');
    await mcp.close();
  });

  it('advertises null as allowed for the optional fields only, descriptions kept', () => {
    const schema = nullableOptionals(searchDocsInput);
    expect(schema.safeParse({ query: 'lease', version: null, page: null }).success).toBe(true);
    expect(schema.safeParse({ query: null }).success).toBe(false);
    expect((schema.shape.version as z.ZodType | undefined)?.description).toBe(searchDocsInput.shape.version.description);
    expect(absentNulls(searchDocsInput, { query: 'lease', version: null, page: 2 })).toEqual({ query: 'lease', page: 2 });
  });
});
