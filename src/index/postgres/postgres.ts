import type { Pool } from 'pg';
import type { Chunk, Doc } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import { ALL_VALUE, filterClause } from '../filter.ts';
import { ingestPostgresDocs } from './postgres-ingest.ts';
import { dropPostgresIndex, preparePostgresSchema, readPostgresMeta, writePostgresMeta } from './postgres-schema.ts';
import { positional } from './postgres-sql.ts';
import { inIndexTransaction } from './postgres-transaction.ts';
import { createPostgresSearch } from './postgres-search.ts';
import { parsePostgresUrl, toPostgresError } from './postgres-url.ts';
import { createPostgresVectors, keepEmbeddingsForRebuild } from './postgres-vectors.ts';
import { CHUNK_COLUMNS, chunkFromRow, type ChunkRow } from '../sql-rows.ts';
import { DEFAULT_TOKENIZER, type TokenizerOptions } from '../analysis/tokenize.ts';
import { resolveWeights, WEIGHT_ORDER, type ColumnWeights } from '../column-weights.ts';
import type { DocumentFrequencies, Hit, IndexBackend, IngestReport, SearchFilter, SearchOptions } from '../types.ts';
import type { VectorBackend } from '../vectors/vector-types.ts';

/** How the PostgreSQL index scores a match: BM25 as SQLite FTS5 computes it, by the same engine (the only ranking since schema version 2). */
export type PostgresRanking = 'bm25';

/** Options of {@link createPostgresIndex}. */
export interface PostgresIndexOptions {
  /** `postgres://user:password@host:port/database?schema=name` (schema default `public`). */
  url: string;
  /** Read only (search, ask): a missing index is an error instead of being created. */
  readonly?: boolean;
  /** Tokenizer of a new or empty index; unset means "as the index was built". */
  tokenizer?: Partial<TokenizerOptions>;
  /** Drop the index's tables (any schema version) and rebuild them in the first ingest's transaction. */
  rebuild?: boolean;
  /** Scoring: `bm25`, as SQLite ranks (the only one). */
  ranking?: PostgresRanking;
  /** Query-time column weights; unset fields keep DEFAULT_WEIGHTS (as for SQLite). */
  weights?: Partial<ColumnWeights>;
  /** Bytes of postings a process keeps between searches (default 256 MB; postgres-postings-cache.ts). */
  cacheBytes?: number;
  /** Most connections the index opens at once (default 4). */
  maxConnections?: number;
  /** Candidates a pgvector HNSW search keeps (`hnsw.ef_search`, default 100; see docs/postgres.md). */
  efSearch?: number;
}

/**
 * The PostgreSQL index backend, plus what `atlas` needs beyond {@link IndexBackend}. Its vector
 * side (pgvector, in the same schema; postgres-vectors.ts) is driven by `withRetrieval`.
 */
export interface PostgresIndex extends IndexBackend, VectorBackend {
  /** The URL without its password, for messages. */
  readonly shown: string;
  /** The same, as the location `withRetrieval` names in its messages (`SqliteIndex.path` is the file). */
  readonly path: string;
  /** The folder the index was last ingested from (see `SqliteIndex.docsRoot`). */
  docsRoot(): Promise<string | undefined>;
  /** Records the docs root in the index's meta table. */
  recordDocsRoot(folder: string): Promise<void>;
  /** The tokenizer the index content uses (connects first). */
  tokenizer(): Promise<TokenizerOptions>;
}

/**
 * Opens an index in a PostgreSQL schema: Atlas's own postings (the engine SQLite uses, its
 * blocks stored in PostgreSQL tables: postgres-postings.ts) ranked by the same BM25 with the
 * same scores and ties, read once per generation of the index (postgres-postings-cache.ts);
 * filters (version, labels, the principal's access) before the top-k cut, the chunk defining a
 * named identifier first, atomic incremental ingest in one transaction, a versioned schema. Connecting happens on the first call; every failure is an AtlasError that names host,
 * port and database, never the password.
 *
 * @example
 * const index = createPostgresIndex({ url: 'postgres://atlas@localhost:5432/docs?schema=team_a' });
 * await index.ingest(docs);
 * const hits = await index.search('max_payload_kb', { k: 5, filter: { version: '3.x' } });
 * await index.close();
 */
export function createPostgresIndex(options: PostgresIndexOptions): PostgresIndex {
  const target = parsePostgresUrl(options.url);
  // `pg` is loaded on the first call, so commands that open an SQLite file never load it.
  let pool: Pool | undefined;
  let closed = false;
  const openPool = async (): Promise<Pool> => {
    const { default: pg } = await import('pg');
    if (closed) throw new AtlasError('usage', `Atlas: the index on ${target.shown} is closed. Open it again with createPostgresIndex.`);
    pool ??= new pg.Pool({
      connectionString: target.connectionString,
      max: options.maxConnections ?? 4,
      options: `-c search_path=${target.schema}`,
      connectionTimeoutMillis: 15_000,
    });
    // Idle clients that lose their server emit here; the next query reports the failure itself.
    pool.on('error', () => {});
    return pool;
  };
  let rebuildPending = options.rebuild === true;
  let prepared: Promise<{ tokenizer: TokenizerOptions; pool: Pool }> | undefined;
  let search: ReturnType<typeof createPostgresSearch> | undefined;

  const prepare = async (): Promise<{ tokenizer: TokenizerOptions; pool: Pool }> => {
    const pool = await openPool();
    const tokenizer = await inIndexTransaction(pool, target, async (client) => {
      if (!options.readonly) await client.query(`CREATE SCHEMA IF NOT EXISTS ${target.schema}`);
      return preparePostgresSchema(client, target, {
        create: !options.readonly,
        ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
      }).catch(async (error: unknown) => {
        // A rebuild replaces any layout, in the first ingest's transaction: an old one is not an error then.
        if (!rebuildPending || !(error instanceof AtlasError) || error.code !== 'index-schema') throw error;
        return { ...DEFAULT_TOKENIZER, ...options.tokenizer };
      });
    });
    return { tokenizer, pool };
  };
  const ready = (): Promise<{ tokenizer: TokenizerOptions; pool: Pool }> => {
    // A failed first call (server down) is retried by the next one.
    prepared ??= prepare().catch((error: unknown) => {
      prepared = undefined;
      throw error;
    });
    return prepared;
  };
  const guard = async <T>(work: (tokenizer: TokenizerOptions, pool: Pool) => Promise<T>): Promise<T> => {
    try {
      const { tokenizer, pool } = await ready();
      return await work(tokenizer, pool);
    } catch (error) {
      throw toPostgresError(error, target);
    }
  };
  const where = (filter: SearchFilter | undefined, after: number) => positional(filterClause(filter, 'c'), after);
  if (options.ranking !== undefined && options.ranking !== 'bm25') {
    throw new AtlasError('usage', `Atlas: PostgreSQL ranking "${String(options.ranking)}" is not supported; the index ranks by bm25 (the same scores as SQLite). Leave ranking unset.`);
  }
  const weights = resolveWeights(options.weights);
  const searchOf = (tokenizer: TokenizerOptions, pool: Pool) =>
    (search ??= createPostgresSearch(pool, tokenizer, {
      weights: WEIGHT_ORDER.map((column) => weights[column]),
      ...(options.cacheBytes === undefined ? {} : { cacheBytes: options.cacheBytes }),
    }));
  let ingesting = false;
  const vectors = createPostgresVectors({ target, readonly: options.readonly === true, run: guard, ...(options.efSearch === undefined ? {} : { efSearch: options.efSearch }) });

  return {
    shown: target.shown,
    path: target.shown,
    vectorStatus: vectors.vectorStatus,
    syncVectors: vectors.syncVectors,
    searchVectors: vectors.searchVectors,

    async search(query: string, searchOptions: SearchOptions): Promise<Hit[]> {
      if (!Number.isInteger(searchOptions.k) || searchOptions.k < 1) {
        throw new AtlasError('usage', `Atlas: k must be a positive integer, got ${searchOptions.k}. Pass e.g. { k: 5 }.`);
      }
      if (searchOptions.mode !== undefined && searchOptions.mode !== 'bm25') {
        throw new AtlasError('usage', `Atlas: search mode "${searchOptions.mode}" needs an embedding model: open the index with withRetrieval(index, { embedder }) (CLI: --embed SPEC or ATLAS_EMBED), or use mode bm25.`);
      }
      return guard((tokenizer, pool) => searchOf(tokenizer, pool).search(query, searchOptions));
    },

    async documentFrequencies(words: readonly string[]): Promise<DocumentFrequencies | undefined> {
      return guard((tokenizer, pool) => searchOf(tokenizer, pool).frequencies(words));
    },

    async getChunk(chunkId: string, filter?: SearchFilter): Promise<Chunk | undefined> {
      return guard(async (_tokenizer, pool) => {
        const clause = where(filter, 1);
        const result = await pool.query<ChunkRow>(`SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.chunk_id = $1${clause.sql}`, [chunkId, ...clause.params]);
        return result.rows[0] === undefined ? undefined : chunkFromRow(result.rows[0]);
      });
    },

    async neighbors(chunkId: string, filter?: SearchFilter): Promise<Chunk[]> {
      return guard(async (_tokenizer, pool) => {
        const self = where(filter, 1);
        const other = where(filter, 1 + self.params.length);
        const result = await pool.query<ChunkRow>(
          `WITH self AS (SELECT c.doc_id, c.ord FROM chunks c WHERE c.chunk_id = $1${self.sql})
           SELECT ${CHUNK_COLUMNS} FROM chunks c, self
           WHERE c.doc_id = self.doc_id AND c.ord IN (
             (SELECT max(ord) FROM chunks WHERE doc_id = self.doc_id AND ord < self.ord),
             (SELECT min(ord) FROM chunks WHERE doc_id = self.doc_id AND ord > self.ord))${other.sql}
           ORDER BY c.ord`,
          [chunkId, ...self.params, ...other.params],
        );
        return result.rows.map(chunkFromRow);
      });
    },

    async ingest(docs: Doc[]): Promise<IngestReport> {
      if (ingesting) throw new AtlasError('usage', `Atlas: an ingest into ${target.shown} is still running on this index. Await it before starting another.`);
      ingesting = true;
      try {
        return await guard(async (tokenizer, pool) => {
          const report = await inIndexTransaction(pool, target, async (client) => {
            let used = tokenizer;
            if (rebuildPending) {
              await keepEmbeddingsForRebuild(client);
              await dropPostgresIndex(client);
              used = await preparePostgresSchema(client, target, { create: true, ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}) });
            }
            return ingestPostgresDocs(client, docs, used);
          });
          rebuildPending = false;
          return report;
        });
      } finally {
        ingesting = false;
      }
    },

    async indexVersion(): Promise<string> {
      return guard(async (_tokenizer, pool) => (await readPostgresMeta(pool, 'indexVersion')) ?? '');
    },

    async stats(): Promise<{ docs: number; chunks: number }> {
      return guard(async (_tokenizer, pool) => {
        const result = await pool.query<{ docs: number; chunks: number }>('SELECT (SELECT count(*) FROM docs)::int AS docs, (SELECT count(*) FROM chunks)::int AS chunks');
        return result.rows[0]!;
      });
    },

    async releaseLines(): Promise<string[]> {
      return guard(async (_tokenizer, pool) => {
        const result = await pool.query<{ line: string }>("SELECT DISTINCT applies_to COLLATE \"C\" AS line FROM docs WHERE applies_to <> 'all' ORDER BY line");
        return result.rows.map((row) => row.line);
      });
    },

    async labelValues(name: string, filter?: SearchFilter): Promise<string[]> {
      return guard(async (_tokenizer, pool) => {
        const clause = where(filter, 1);
        const result = await pool.query<{ value: string }>(
          `SELECT v.value FROM (SELECT DISTINCT value FROM chunk_labels WHERE name = $1 AND value <> '${ALL_VALUE}') v
           WHERE EXISTS (SELECT 1 FROM chunk_labels l JOIN chunks c ON c.chunk_id = l.chunk_id
                         WHERE l.name = $1 AND l.value = v.value${clause.sql})
           ORDER BY v.value COLLATE "C"`,
          [name, ...clause.params],
        );
        return result.rows.map((row) => row.value);
      });
    },

    async docsRoot(): Promise<string | undefined> {
      return guard((_tokenizer, pool) => readPostgresMeta(pool, 'docsRoot'));
    },

    async recordDocsRoot(folder: string): Promise<void> {
      await guard(async (_tokenizer, pool) => {
        if ((await readPostgresMeta(pool, 'docsRoot')) !== folder) await writePostgresMeta(pool, 'docsRoot', folder);
      });
    },

    async tokenizer(): Promise<TokenizerOptions> {
      return guard(async (tokenizer) => tokenizer);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const open = pool;
      pool = undefined;
      await open?.end();
    },
  };
}
