import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../embed/hash-embedder.ts';
import { createRecordingEmbedder } from '../../testing/embedders.ts';
import { AtlasError } from '../../errors.ts';
import { startPgliteServer } from '../../testing/pglite-server.ts';
import { createTestSchemas, testPostgres } from '../../testing/postgres-server.ts';
import { createPostgresIndex } from './postgres.ts';
import { parsePostgresUrl } from './postgres-url.ts';
import { createTestDoc } from '../test-docs.ts';
import { describeVectorBackend } from '../contract/vector-suite.ts';
import { withRetrieval } from '../vectors/vector-retrieval.ts';

const server = testPostgres(process.env);
const docs = () => [
  createTestDoc({ docId: 'leases', sections: ['A lease expires after thirty seconds.', 'Workers renew their lease.'] }),
  createTestDoc({ docId: 'payloads', sections: ['Payload limits: max_payload_kb is 512.'] }),
];

async function query(url: string, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const target = parsePostgresUrl(url);
  const client = new pg.Client({ connectionString: target.connectionString, options: `-c search_path=${target.schema}` });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

describe.skipIf(server.url === undefined)(`pgvector on a PostgreSQL server without it${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const url = server.url ?? 'postgres://unused';
  const schemas = createTestSchemas(url, 'pgvec');
  afterAll(() => schemas.dropAll());

  it('keeps the text index, reads "no vectors", and names the server, the missing extension and the fix when vectors are asked for', async () => {
    // The test server trusts local users: the password is ignored there, and must never be shown.
    const withPassword = new URL(schemas.fresh());
    withPassword.password = 'hunter2';
    const target = parsePostgresUrl(withPassword.href);
    const major = Math.floor(Number((await query(url, 'SHOW server_version_num'))[0]!.server_version_num) / 10000);
    const index = createPostgresIndex({ url: withPassword.href });
    await index.ingest(docs());
    expect(await index.vectorStatus()).toBeUndefined();
    expect(await index.searchVectors('lease', [1, 0, 0], { k: 3 })).toEqual([]);
    const error = await withRetrieval(index, { embedder: createHashEmbedder({ dimensions: 8 }) })
      .ingest(docs())
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(AtlasError);
    expect((error as AtlasError).code).toBe('index-io');
    expect((error as AtlasError).message).toBe(
      `Atlas: the PostgreSQL server of ${target.shown} has no pgvector extension, which vectors (--embed) need. Install it on the server (Debian/Ubuntu: apt install postgresql-${major}-pgvector) and run CREATE EXTENSION vector; as a superuser in database "${target.database}", or keep vectors in an SQLite index (--db .atlas/index.db).`,
    );
    expect(target.shown).toContain(':***@');
    expect((error as AtlasError).message).not.toContain('hunter2');
    // The failed attempt left no trace: no vector tables, the text index as it was.
    expect(await query(url, `SELECT to_regclass('${target.schema}.chunk_vectors') AS found`)).toEqual([{ found: null }]);
    expect(await index.stats()).toEqual({ docs: 2, chunks: 3 });
    expect((await index.search('lease', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['leases#0', 'leases#1']);
    await index.close();
  });
});

// PGlite (PostgreSQL 18 in WebAssembly, with pgvector) on a loopback port: the vector path end to end.
const pglite = await startPgliteServer();
const pgliteUrl = `${pglite.url}?schema=public`;
afterAll(() => pglite.close());

/**
 * A new, empty index on the PGlite server. PGlite is one session that ignores the startup
 * `search_path`, so every index lives in `public`, emptied (vector extension included) first.
 */
async function freshPgliteIndex() {
  await query(pgliteUrl, 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public');
  return createPostgresIndex({ url: pgliteUrl, maxConnections: 1 });
}

describeVectorBackend('postgres with pgvector (PGlite)', { make: freshPgliteIndex, location: parsePostgresUrl(pgliteUrl).shown });

describe('PostgreSQL backend with pgvector (PGlite)', () => {
  it('creates the extension on the first sync only, keys vectors by content hash and model, and indexes them with HNSW (cosine)', async () => {
    const index = await freshPgliteIndex();
    await index.ingest(docs());
    expect(await query(pgliteUrl, "SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'vector'")).toEqual([{ n: 0 }]);
    const report = await withRetrieval(index, { embedder: createHashEmbedder({ dimensions: 16 }) }).ingest(docs());
    expect(report.vectors).toEqual({ model: 'hash:16', dimensions: 16, embedded: 3, reused: 0, calls: 1, vectors: 3 });
    expect(await query(pgliteUrl, "SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'vector'")).toEqual([{ n: 1 }]);
    expect(await query(pgliteUrl, "SELECT key, value FROM meta WHERE key LIKE 'embed%' ORDER BY key")).toEqual([
      { key: 'embedDimensions', value: '16' },
      { key: 'embedModel', value: 'hash:16' },
    ]);
    expect(await query(pgliteUrl, "SELECT indexdef FROM pg_indexes WHERE indexname = 'chunk_vectors_hnsw'")).toEqual([
      { indexdef: 'CREATE INDEX chunk_vectors_hnsw ON public.chunk_vectors USING hnsw (((embedding)::vector(16)) vector_cosine_ops)' },
    ]);
    expect(await query(pgliteUrl, 'SELECT count(*)::int AS n FROM embeddings')).toEqual([{ n: 3 }]);
    await index.close();
  });

  it('finds k chunks through the HNSW index even when the filter rejects nearly all the nearest ones', async () => {
    const index = await freshPgliteIndex();
    const many = Array.from({ length: 240 }, (_, position) =>
      createTestDoc({ docId: `page${String(position).padStart(3, '0')}`, appliesTo: position % 40 === 0 ? '3.x' : '2.x', sections: [`Lease renewal note number ${position}.`] }),
    );
    const embedder = createHashEmbedder({ dimensions: 32 });
    const withVectors = withRetrieval(index, { embedder, mode: 'vector' });
    await withVectors.ingest(many);
    const question = 'Lease renewal note number 80.';
    const exact = await withVectors.search(question, { k: 5, filter: { version: '3.x' } });
    // Force the HNSW path (the planner would read the six 3.x chunks first); PGlite is one session,
    // so these settings reach the index's own connection.
    await query(pgliteUrl, 'SET enable_seqscan = off; SET enable_sort = off');
    try {
      const hits = await withVectors.search(question, { k: 5, filter: { version: '3.x' } });
      // Six chunks are 3.x, one in forty: without the iterative scan the 100 candidates of the graph hold three.
      expect(hits).toHaveLength(5);
      expect(hits.every((hit) => hit.appliesTo === '3.x')).toBe(true);
      expect(hits[0]!.chunkId).toBe('page080#0');
      expect(hits.map((hit) => [hit.chunkId, hit.score])).toEqual(exact.map((hit) => [hit.chunkId, hit.score]));
    } finally {
      await query(pgliteUrl, 'RESET enable_seqscan; RESET enable_sort');
    }
    await index.close();
  });

  it('names the superuser fix when pgvector is installed but the user may not create it', async () => {
    const index = await freshPgliteIndex();
    await index.ingest(docs());
    // PGlite is one session: the role reaches the index's connection too.
    await query(pgliteUrl, 'DROP ROLE IF EXISTS atlas_writer; CREATE ROLE atlas_writer; GRANT ALL ON SCHEMA public TO atlas_writer; GRANT ALL ON ALL TABLES IN SCHEMA public TO atlas_writer; SET ROLE atlas_writer');
    try {
      await expect(index.syncVectors(createHashEmbedder({ dimensions: 8 }))).rejects.toThrow(
        `Atlas: pgvector is installed on the PostgreSQL server of ${parsePostgresUrl(pgliteUrl).shown} but not created in database "postgres", and user "postgres" may not create it (permission denied to create extension "vector"). Run CREATE EXTENSION vector; as a superuser in database "postgres", or keep vectors in an SQLite index (--db .atlas/index.db).`,
      );
    } finally {
      await query(pgliteUrl, 'RESET ROLE');
    }
    expect(await index.vectorStatus()).toBeUndefined();
    await index.close();
  });

  it('refuses an efSearch pgvector would not take, naming the range', () => {
    expect(() => createPostgresIndex({ url: pgliteUrl, efSearch: 0 })).toThrow(
      `Atlas: efSearch of the PostgreSQL index on ${parsePostgresUrl(pgliteUrl).shown} must be an integer from 1 to 1000, got 0. Leave it out for 100.`,
    );
  });

  it('rebuilds without a new embedding call for unchanged text, and embeds anew for another model', async () => {
    const index = await freshPgliteIndex();
    await withRetrieval(index, { embedder: createHashEmbedder({ dimensions: 8 }) }).ingest(docs());
    await index.close();
    const rebuilt = createPostgresIndex({ url: pgliteUrl, rebuild: true, maxConnections: 1 });
    const same = createRecordingEmbedder(createHashEmbedder({ dimensions: 8 }));
    const report = await withRetrieval(rebuilt, { embedder: same }).ingest(docs());
    expect(report.vectors).toEqual({ model: 'hash:8', dimensions: 8, embedded: 0, reused: 3, calls: 0, vectors: 3 });
    expect(same.calls()).toEqual([]);
    expect(await rebuilt.vectorStatus()).toEqual({ model: 'hash:8', dimensions: 8, vectors: 3, missing: 0 });
    expect((await withRetrieval(rebuilt, { embedder: same, mode: 'vector' }).search('Workers renew their lease.', { k: 1 })).map((hit) => hit.chunkId)).toEqual(['leases#1']);
    await rebuilt.close();

    // A rebuild without an embedder drops the vectors; the next sync of another model embeds everything and prunes the kept ones.
    const plain = createPostgresIndex({ url: pgliteUrl, rebuild: true, maxConnections: 1 });
    await plain.ingest(docs());
    expect(await plain.vectorStatus()).toBeUndefined();
    const other = await withRetrieval(plain, { embedder: createHashEmbedder({ dimensions: 4 }) }).ingest(docs());
    expect(other.vectors).toEqual({ model: 'hash:4', dimensions: 4, embedded: 3, reused: 0, calls: 1, vectors: 3 });
    expect(await query(pgliteUrl, "SELECT count(*)::int AS n, to_regclass('embeddings_previous') AS kept FROM embeddings")).toEqual([{ n: 3, kept: null }]);
    await plain.close();
  });
});
