import type Database from 'better-sqlite3';
import type { Chunk, Doc } from '../corpus/types.ts';
import { AtlasError } from '../errors.ts';
import { filterClause } from './filter.ts';
import { ingestDocs } from './ingest.ts';
import { buildMatchExpression, queryTerms } from './query.ts';
import { openIndexDatabase, readMeta } from './schema.ts';
import { makeSnippet } from './snippet.ts';
import type { TokenizerOptions } from './tokenize.ts';
import type { Hit, IndexBackend, IngestReport, SearchFilter, SearchOptions } from './types.ts';

/** BM25 weight of each indexed column (higher counts more). */
export interface ColumnWeights {
  /** The document title (every chunk of the document carries it). */
  title: number;
  /** The chunk's own heading. */
  heading: number;
  /** The chunk's markdown text. */
  body: number;
  /** Identifier expansions of heading and text (`maxpayloadkb`, `payload too large`). */
  idents: number;
}

/** Default weights: a heading match counts three times a body match. */
export const DEFAULT_WEIGHTS: Readonly<ColumnWeights> = Object.freeze({ title: 2, heading: 3, body: 1, idents: 1 });

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
}

/** The SQLite index backend, plus the settings it runs with. */
export interface SqliteIndex extends IndexBackend {
  readonly path: string;
  readonly tokenizer: Readonly<TokenizerOptions>;
  readonly weights: Readonly<ColumnWeights>;
}

interface ChunkRow {
  chunk_id: string;
  doc_id: string;
  ord: number;
  title: string;
  heading: string;
  heading_path: string;
  text: string;
  applies_to: string;
  labels: string;
  source_path: string;
  start_line: number;
  end_line: number;
  prev_chunk_id: string | null;
  next_chunk_id: string | null;
}

const CHUNK_COLUMNS = `c.chunk_id, c.doc_id, c.ord, c.title, c.heading, c.heading_path, c.text, c.applies_to,
  c.labels, c.source_path, c.start_line, c.end_line, c.prev_chunk_id, c.next_chunk_id`;

/**
 * Opens (or creates) an SQLite FTS5 index: BM25 search with filters applied in SQL before the
 * top-k cut, atomic incremental ingest, versioned schema, WAL mode.
 *
 * @example
 * const index = createSqliteIndex({ path: '.atlas/index.db' });
 * await index.ingest(docs);
 * const hits = await index.search('max_payload_kb', { k: 5, filter: { version: '3.x' } });
 * await index.close();
 */
export function createSqliteIndex(options: SqliteIndexOptions): SqliteIndex {
  const { db, tokenizer } = openIndexDatabase(options);
  const weights: ColumnWeights = { ...DEFAULT_WEIGHTS, ...options.weights };
  for (const [column, weight] of Object.entries(weights)) {
    if (!Number.isFinite(weight) || weight < 0) {
      db.close();
      throw new AtlasError('usage', `Atlas: the weight of column ${column} must be a number >= 0, got ${weight}.`);
    }
  }
  const statements = createStatementCache(db);
  const bm25 = `bm25(chunks_fts, ${weights.title}, ${weights.heading}, ${weights.body}, ${weights.idents})`;

  return {
    path: options.path,
    tokenizer,
    weights,

    async search(query: string, { k, filter }: SearchOptions): Promise<Hit[]> {
      if (!Number.isInteger(k) || k < 1) {
        throw new AtlasError('usage', `Atlas: k must be a positive integer, got ${k}. Pass e.g. { k: 5 }.`);
      }
      const match = buildMatchExpression(query, tokenizer);
      if (match === undefined) return [];
      const where = filterClause(filter, 'c');
      const rows = statements.get(searchSql(bm25, where.sql)).all(match, ...where.params, k) as Array<
        ChunkRow & { score: number }
      >;
      const terms = queryTerms(query, tokenizer);
      return rows.map((row) => withLazySnippet({ ...chunkFromRow(row), score: row.score }, () => makeSnippet(row.text, terms, tokenizer)));
    },

    async getChunk(chunkId: string, filter?: SearchFilter): Promise<Chunk | undefined> {
      const where = filterClause(filter, 'c');
      const row = statements
        .get(`SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.chunk_id = ?${where.sql}`)
        .get(chunkId, ...where.params) as ChunkRow | undefined;
      return row === undefined ? undefined : chunkFromRow(row);
    },

    async neighbors(chunkId: string, filter?: SearchFilter): Promise<Chunk[]> {
      const where = filterClause(filter, 'c');
      const rows = statements
        .get(
          `WITH self AS (SELECT c.doc_id, c.ord FROM chunks c WHERE c.chunk_id = ?${where.sql})
           SELECT ${CHUNK_COLUMNS} FROM chunks c, self
           WHERE c.doc_id = self.doc_id AND c.ord IN (
             (SELECT max(ord) FROM chunks WHERE doc_id = self.doc_id AND ord < self.ord),
             (SELECT min(ord) FROM chunks WHERE doc_id = self.doc_id AND ord > self.ord))${where.sql}
           ORDER BY c.ord`,
        )
        .all(chunkId, ...where.params, ...where.params) as ChunkRow[];
      return rows.map(chunkFromRow);
    },

    async ingest(docs: Doc[]): Promise<IngestReport> {
      return ingestDocs(db, docs, tokenizer);
    },

    async indexVersion(): Promise<string> {
      return readMeta(db, 'indexVersion') ?? '';
    },

    async stats(): Promise<{ docs: number; chunks: number }> {
      return statements
        .get('SELECT (SELECT count(*) FROM docs) AS docs, (SELECT count(*) FROM chunks) AS chunks')
        .get() as { docs: number; chunks: number };
    },

    async close(): Promise<void> {
      if (db.open) db.close();
    },
  };
}

/**
 * Top-k by BM25 over ids and scores only, then the chunk rows of those k. Without a filter the
 * ranking never leaves the FTS table; with one it reads the narrow chunks_for_filters index.
 * Ties keep ingest order.
 */
function searchSql(bm25: string, filterSql: string): string {
  const top =
    filterSql === ''
      ? `SELECT rowid AS id, -${bm25} AS score FROM chunks_fts
         WHERE chunks_fts MATCH ? ORDER BY score DESC, rowid LIMIT ?`
      : `SELECT c.id, -${bm25} AS score
         FROM chunks_fts JOIN chunks c INDEXED BY chunks_for_filters ON c.id = chunks_fts.rowid
         WHERE chunks_fts MATCH ?${filterSql} ORDER BY score DESC, c.id LIMIT ?`;
  return `WITH top AS (${top})
    SELECT ${CHUNK_COLUMNS}, top.score FROM top JOIN chunks c ON c.id = top.id ORDER BY top.score DESC, top.id`;
}

/**
 * Adds `snippet` as an enumerable property computed on first read: callers that skip hits
 * (a search session dropping passages it already showed) never pay for their snippets.
 */
function withLazySnippet(hit: Omit<Hit, 'snippet'>, make: () => string): Hit {
  let snippet: string | undefined;
  return Object.defineProperty(hit, 'snippet', {
    enumerable: true,
    get: () => (snippet ??= make()),
  }) as Hit;
}

/** Prepared statements by SQL text (filters change the SQL shape), owned by one index. */
function createStatementCache(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return {
    get(sql: string): Database.Statement {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

function chunkFromRow(row: ChunkRow): Chunk {
  const chunk: Chunk = {
    chunkId: row.chunk_id,
    docId: row.doc_id,
    title: row.title,
    heading: row.heading,
    headingPath: JSON.parse(row.heading_path) as string[],
    text: row.text,
    appliesTo: row.applies_to,
    ord: row.ord,
    labels: JSON.parse(row.labels) as Chunk['labels'],
    sourcePath: row.source_path,
    startLine: row.start_line,
    endLine: row.end_line,
  };
  if (row.prev_chunk_id !== null) chunk.prevChunkId = row.prev_chunk_id;
  if (row.next_chunk_id !== null) chunk.nextChunkId = row.next_chunk_id;
  return chunk;
}
