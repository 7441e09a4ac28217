import type { Chunk, Doc } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import { ACL_LABEL, ALL_VALUE, filterClause, type FilterClause } from '../filter.ts';
import type { IngestSource, IngestStreamOptions } from './ingest.ts';
import { readMeta, writeMeta } from './schema.ts';
import { closeIndexDatabase, openIndexDatabase } from './sqlite-open.ts';
import { CHUNK_COLUMNS, chunkFromRow, createStatementCache, type ChunkRow } from '../sql-rows.ts';
import { createSqliteSearch, type IndexState } from './sqlite-search.ts';
import { rowCacheBytesFor } from '../engine/postings-row-cache.ts';
import { createPostingsReader } from '../engine/postings-store.ts';
import { documentFrequencies } from '../engine/term-frequencies.ts';
import { createFts5Tokenizer } from '../analysis/fts5-tokens.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { DocumentFrequencies, Hit, IndexBackend, IngestReport, SearchFilter, SearchOptions } from '../types.ts';
import { createSqliteVectors, seedEmbeddings } from './vector-store.ts';
import { resolveWeights, WEIGHT_ORDER, type ColumnWeights } from '../column-weights.ts';
import type { VectorBackend } from '../vectors/vector-types.ts';

export { DEFAULT_WEIGHTS, type ColumnWeights } from '../column-weights.ts';

/** Options of {@link createSqliteIndex}. */
export interface SqliteIndexOptions {
  /** Database file (created with its folder if missing), or `':memory:'`. */
  path: string;
  /** Tokenizer of a new or empty index; unset means "as the index was built". */
  tokenizer?: Partial<TokenizerOptions>;
  /** Query-time column weights; unset fields keep {@link DEFAULT_WEIGHTS}. */
  weights?: Partial<ColumnWeights>;
  /** Drop whatever is at `path` (any schema version) and start empty. */
  rebuild?: boolean;
  /** Read only (search, ask): nothing is written; see sqlite-open.ts. */
  readonly?: boolean;
  /** How long a writer waits for another writer's lock, in ms (default 30 s). */
  busyTimeoutMs?: number;
}

/**
 * The SQLite index backend, plus the settings it runs with. Its vector side (sqlite-vec, in the
 * same file) is driven by `withRetrieval` (vector-retrieval.ts); alone it searches by BM25.
 */
export interface SqliteIndex extends IndexBackend, VectorBackend {
  readonly path: string;
  readonly tokenizer: Readonly<TokenizerOptions>;
  readonly weights: Readonly<ColumnWeights>;
  /**
   * The folder the index was last ingested from, as `recordDocsRoot` stored it (`atlas ingest`
   * records it, so `atlas ask` finds the `atlas.config.yaml` there); undefined when never recorded.
   *
   * @example
   * await index.docsRoot(); // '/home/me/site/docs'
   */
  docsRoot(): Promise<string | undefined>;
  /** Records the docs root (an absolute path) in the index's meta table. */
  recordDocsRoot(folder: string): Promise<void>;
  /**
   * {@link IndexBackend.ingest} for documents that arrive in batches (as `parseForIngest` yields
   * them, parsed in worker threads while this thread writes): one transaction held open across
   * the batches, the same rows and report; documents no batch brought are deleted once the
   * source has ended; a source that throws, a failed check or a `beforeCommit` that throws rolls
   * it all back.
   *
   * @example
   * const report = await index.ingestStream(batches, { beforeCommit: () => { if (problems.length) throw new CorpusError(problems); } });
   */
  ingestStream(source: IngestSource, options?: IngestStreamOptions): Promise<IngestReport>;
  /**
   * Copies the stored embeddings of `model` from another index file (the one a `--rebuild`
   * replaces), so the next {@link VectorBackend.syncVectors} embeds only new or changed text.
   * Returns how many were copied (0 when that file has none of `model` or cannot be read).
   *
   * @example
   * await rebuilt.seedVectors('.atlas/index.db', 'openai:text-embedding-3-small'); // 359
   */
  seedVectors(from: string, model: string): Promise<number>;
}

/**
 * Opens (or creates) an SQLite index: BM25 search (as FTS5 scores it, from the postings store in
 * the same file, postings-search.ts) with filters applied before the top-k cut, the chunk that
 * defines an identifier first when the query names one, atomic incremental ingest, versioned
 * schema, WAL mode.
 *
 * @example
 * const index = createSqliteIndex({ path: '.atlas/index.db', weights: { headingPath: 2 } });
 * await index.ingest(docs);
 * const hits = await index.search('max_payload_kb', { k: 5, filter: { version: '3.x' } });
 * await index.close();
 */
export function createSqliteIndex(options: SqliteIndexOptions): SqliteIndex {
  const weights = resolveWeights(options.weights);
  const { db, tokenizer } = openIndexDatabase(options);
  const statements = createStatementCache(db);

  // What a search knows of the current index version: whether any chunk carries an `acl` label
  // (without one, the access condition is left out of the SQL, where it would keep every chunk,
  // and unfiltered searches stay on the path without filter checks) and the bytes of postings
  // rows to keep, from the file's size (postings-row-cache.ts). Another process may ingest into
  // the same file, hence the version check. A file keeps its page size.
  let known: IndexState | undefined;
  const pageBytes = statements.get('PRAGMA page_size').pluck().get() as number;
  // What a search may reuse from an earlier one (the acl check, filter verdicts) is keyed by the
  // data it reads: the content version (which an ingest can bring back to an earlier value with
  // other rowids), the commits of other connections (`data_version`), this index's own ingests,
  // and nothing is reused while one of them is still open on this connection.
  let generation = 0;
  let ingesting = false;
  const state = (): IndexState => {
    const content = (statements.get("SELECT value FROM meta WHERE key = 'indexVersion'").pluck().get() as string | undefined) ?? '';
    const version = ingesting ? `ingesting-${(generation += 1)}` : `${content}:${statements.get('PRAGMA data_version').pluck().get() as number}:${generation}`;
    if (known?.version !== version) {
      const found = statements.get('SELECT EXISTS (SELECT 1 FROM chunk_labels WHERE name = ?)').pluck().get(ACL_LABEL) === 1;
      const fileBytes = (statements.get('PRAGMA page_count').pluck().get() as number) * pageBytes;
      known = { version, restricted: found, rowCacheBytes: rowCacheBytesFor(fileBytes) };
    }
    return known;
  };
  const where = (filter: SearchFilter | undefined): FilterClause => filterClause(filter, 'c', { restricted: state().restricted });
  // A search's statements in one read transaction (a savepoint inside an ingest's): one version of the index.
  const inSnapshot = db.transaction((work: () => unknown) => work());
  const search = createSqliteSearch(statements, WEIGHT_ORDER.map((column) => weights[column]), tokenizer, {
    state,
    snapshot: <T>(work: () => T) => inSnapshot(work) as T,
  });
  // The tokenizer the document frequencies of a query's words are read with, made on first use.
  let frequencyTokens: ReturnType<typeof createFts5Tokenizer> | undefined;
  const vectors = createSqliteVectors({ db, statements, path: options.path, tokenizer, readonly: options.readonly === true, where });
  // A streamed ingest holds its transaction open across awaits: a second ingest meanwhile would nest in it.
  const exclusive = async <T>(work: () => T | Promise<T>): Promise<T> => {
    if (ingesting) {
      throw new AtlasError('usage', `Atlas: an ingest into ${options.path} is still running on this index. Await it before starting another.`);
    }
    ingesting = true;
    try {
      return await work();
    } finally {
      ingesting = false;
      generation += 1;
    }
  };

  return {
    path: options.path,
    tokenizer,
    weights,

    async search(query: string, options: SearchOptions): Promise<Hit[]> {
      if (!Number.isInteger(options.k) || options.k < 1) {
        throw new AtlasError('usage', `Atlas: k must be a positive integer, got ${options.k}. Pass e.g. { k: 5 }.`);
      }
      if (options.mode !== undefined && options.mode !== 'bm25') {
        throw new AtlasError('usage', `Atlas: search mode "${options.mode}" needs an embedding model: open the index with withRetrieval(index, { embedder }) (CLI: --embed SPEC or ATLAS_EMBED), or use mode bm25.`);
      }
      return search(query, options);
    },

    async getChunk(chunkId: string, filter?: SearchFilter): Promise<Chunk | undefined> {
      const clause = where(filter);
      const row = statements
        .get(`SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.chunk_id = ?${clause.sql}`)
        .get(chunkId, ...clause.params) as ChunkRow | undefined;
      return row === undefined ? undefined : chunkFromRow(row);
    },

    async neighbors(chunkId: string, filter?: SearchFilter): Promise<Chunk[]> {
      const clause = where(filter);
      const rows = statements
        .get(
          `WITH self AS (SELECT c.doc_id, c.ord FROM chunks c WHERE c.chunk_id = ?${clause.sql})
           SELECT ${CHUNK_COLUMNS} FROM chunks c, self
           WHERE c.doc_id = self.doc_id AND c.ord IN (
             (SELECT max(ord) FROM chunks WHERE doc_id = self.doc_id AND ord < self.ord),
             (SELECT min(ord) FROM chunks WHERE doc_id = self.doc_id AND ord > self.ord))${clause.sql}
           ORDER BY c.ord`,
        )
        .all(chunkId, ...clause.params, ...clause.params) as ChunkRow[];
      return rows.map(chunkFromRow);
    },

    async ingest(docs: Doc[]): Promise<IngestReport> {
      // The ingest modules load on first use: a searching process (atlas search, ask) never needs them.
      const { ingestDocs } = await import('./ingest.ts');
      return exclusive(() => ingestDocs(db, docs, tokenizer));
    },

    async ingestStream(source: IngestSource, streamOptions?: IngestStreamOptions): Promise<IngestReport> {
      const { ingestDocStream } = await import('./ingest.ts');
      return exclusive(() => ingestDocStream(db, source, tokenizer, streamOptions));
    },

    async indexVersion(): Promise<string> {
      return readMeta(db, 'indexVersion') ?? '';
    },

    async stats(): Promise<{ docs: number; chunks: number }> {
      return statements
        .get('SELECT (SELECT count(*) FROM docs) AS docs, (SELECT count(*) FROM chunks) AS chunks')
        .get() as { docs: number; chunks: number };
    },

    async documentFrequencies(words: readonly string[]): Promise<DocumentFrequencies | undefined> {
      frequencyTokens ??= createFts5Tokenizer({ porter: tokenizer.porter, spaceless: 'query' });
      const reader = createPostingsReader((sql) => statements.get(sql));
      // Counts over pages some reader may not see would tell of their words: none are given then.
      return inSnapshot(() => (state().restricted ? undefined : documentFrequencies(reader, frequencyTokens!, words))) as DocumentFrequencies | undefined;
    },

    async releaseLines(): Promise<string[]> {
      const rows = statements.get("SELECT DISTINCT applies_to AS line FROM docs WHERE applies_to <> 'all' ORDER BY applies_to").all() as Array<{ line: string }>;
      return rows.map((row) => row.line);
    },

    async labelValues(name: string, filter?: SearchFilter): Promise<string[]> {
      const clause = where(filter);
      // The few distinct values first, then for each whether one chunk with it passes the filter
      // (stops at the first): faster than filtering every labelled chunk.
      return statements
        .get(
          `SELECT v.value FROM (SELECT DISTINCT value FROM chunk_labels WHERE name = ? AND value <> '${ALL_VALUE}') v
           WHERE EXISTS (SELECT 1 FROM chunk_labels l JOIN chunks c ON c.chunk_id = l.chunk_id
                         WHERE l.name = ? AND l.value = v.value${clause.sql})
           ORDER BY v.value`,
        )
        .pluck()
        .all(name, name, ...clause.params) as string[];
    },

    async docsRoot(): Promise<string | undefined> {
      return readMeta(db, 'docsRoot');
    },

    async recordDocsRoot(folder: string): Promise<void> {
      if (readMeta(db, 'docsRoot') !== folder) writeMeta(db, 'docsRoot', folder);
    },

    async seedVectors(from: string, model: string): Promise<number> {
      return seedEmbeddings(db, from, model);
    },

    vectorStatus: vectors.vectorStatus,
    syncVectors: vectors.syncVectors,
    searchVectors: vectors.searchVectors,

    async close(): Promise<void> {
      closeIndexDatabase(db);
    },
  };
}

