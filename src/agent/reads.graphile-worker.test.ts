import { sharedFolder } from '../testing/shared-folder.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chunk } from '../corpus/types.ts';
import { loadCorpus } from '../corpus/index.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';
import { SearchSession } from './session/search-session.ts';
import { DEFAULT_READ_TOKENS, estimateTokens } from './session/section-page.ts';
import { executeToolCall } from './session/tools.ts';

// The real Graphile Worker docs (MIT), kept outside the repo at ../shared/corpora/graphile-worker.
const { path: corpusRoot, present, absent } = sharedFolder('corpora/graphile-worker/docs', process.env);

describe('read_section on the real Graphile Worker docs', () => {
  let index: IndexBackend;
  let chunks: Chunk[] = [];
  beforeAll(async () => {
    if (!present) return;
    const { docs } = await loadCorpus(corpusRoot);
    chunks = docs.flatMap((doc) => doc.chunks);
    index = createSqliteIndex({ path: ':memory:' });
    await index.ingest(docs);
  });
  afterAll(async () => {
    await index?.close();
  });

  it('reaches every character of every section by following next_offset, each page within the budget', async ({ skip }) => {
    skip(!present, absent);
    // Not vacuous: some real section needs several pages.
    expect(Math.max(...chunks.map((chunk) => chunk.text.length))).toBeGreaterThan(DEFAULT_READ_TOKENS * 4);
    for (const chunk of chunks) {
      const session = new SearchSession({ index });
      const pages: string[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const outcome = await executeToolCall(session, 'read_section', { chunk_id: chunk.chunkId, offset });
        if (!outcome.ok) throw new Error(`${chunk.chunkId} at ${offset}: ${outcome.error}`);
        expect(estimateTokens(outcome.value.text)).toBeLessThanOrEqual(DEFAULT_READ_TOKENS);
        expect(outcome.value.heading_path).toBe(chunk.headingPath.join(' > '));
        pages.push(outcome.value.text);
        offset = outcome.value.next_offset;
      }
      expect(pages.join('')).toBe(chunk.text);
      // The evidence holds each distinct page shown, in order.
      expect(session.evidence.get(chunk.chunkId)?.shown).toEqual([...new Set(pages)]);
    }
  });
});
