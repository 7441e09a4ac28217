import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHashEmbedder } from '../../testing/embedders.ts';
import { createSqliteIndex } from '../sqlite/sqlite.ts';
import { createTestDoc } from '../test-docs.ts';
import { withRetrieval } from './vector-retrieval.ts';
import { describeVectorBackend } from '../contract/vector-suite.ts';

const docs = () => [
  createTestDoc({ docId: 'leases', sections: ['A lease expires after thirty seconds.', { heading: 'Renewal', text: 'Workers renew their lease with a heartbeat.' }] }),
  createTestDoc({ docId: 'payloads', appliesTo: '3.x', sections: ['Payload limits: max_payload_kb is 512.'] }),
  createTestDoc({ docId: 'vault', labels: { acl: 'admins' }, sections: ['Lease secrets rotate nightly.'] }),
];

/** The tables of the index file at `path`. */
function tablesOf(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

describeVectorBackend('sqlite in memory', { make: async () => createSqliteIndex({ path: ':memory:' }), location: ':memory:' });

describe('SQLite vector tables', () => {
  it('is the index itself, and an ingest creates no vector table', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'atlas-vectors-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const path = join(folder, 'index.db');
    const index = createSqliteIndex({ path });
    expect(withRetrieval(index, {})).toBe(index);
    await index.ingest(docs());
    expect(await index.vectorStatus()).toBeUndefined();
    await index.close();
    expect(tablesOf(path)).toEqual(['chunk_labels', 'chunks', 'docs', 'meta', 'postings', 'postings_terms', 'postings_totals']);
    const embedded = withRetrieval(createSqliteIndex({ path }), { embedder: createHashEmbedder({ dimensions: 8 }) });
    await embedded.ingest(docs());
    await embedded.close();
    expect(tablesOf(path)).toEqual(['chunk_labels', 'chunk_vectors', 'chunks', 'docs', 'embeddings', 'meta', 'postings', 'postings_terms', 'postings_totals']);
  });
});
