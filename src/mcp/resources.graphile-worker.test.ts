import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../corpus/index.ts';
import type { Doc } from '../corpus/types.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';
import { sharedFolder } from '../testing/shared-folder.ts';
import { createAtlasMcpServer } from './server.ts';
import { connectInMemory, type LinkedClient } from './test-client.ts';

// The real Graphile Worker docs (MIT), kept outside the repo at ../shared/corpora/graphile-worker.
const { path: corpusRoot, present, absent } = sharedFolder('corpora/graphile-worker/docs', process.env);

describe('atlas://doc and atlas://chunk on the real Graphile Worker docs', () => {
  let index: IndexBackend;
  let docs: Doc[] = [];
  let mcp: LinkedClient;
  beforeAll(async () => {
    if (!present) return;
    docs = (await loadCorpus(corpusRoot)).docs;
    index = createSqliteIndex({ path: ':memory:' });
    await index.ingest(docs);
    mcp = await connectInMemory(createAtlasMcpServer({ index }));
  });
  afterAll(async () => {
    await mcp?.close();
    await index?.close();
  });

  it('reads every page whole: all its chunks, each text in order, each chunk resource its own text', async ({ skip }) => {
    skip(!present, absent);
    expect(docs.length).toBeGreaterThan(30);
    for (const doc of docs) {
      const read = await mcp.client.readResource({ uri: `atlas://doc/${encodeURIComponent(doc.docId)}` });
      const content = read.contents[0] as unknown as { text: string; _meta: { chunk_ids: string[] } };
      expect(content._meta.chunk_ids).toEqual(doc.chunks.map((chunk) => chunk.chunkId));
      let at = 0;
      for (const chunk of doc.chunks) {
        const found = content.text.indexOf(chunk.text.trim(), at);
        expect(found, `${chunk.chunkId} in atlas://doc/${doc.docId}`).toBeGreaterThanOrEqual(at);
        at = found + chunk.text.trim().length;
      }
      const [first] = doc.chunks;
      const chunk = await mcp.client.readResource({ uri: `atlas://chunk/${encodeURIComponent(first!.chunkId)}` });
      expect((chunk.contents[0] as { text: string }).text.endsWith(`\n\n${first!.text}`)).toBe(true);
    }
  });
});
