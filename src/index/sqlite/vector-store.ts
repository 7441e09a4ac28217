import type Database from 'better-sqlite3';
import type { Embedder } from '../../embed/types.ts';
import { AtlasError } from '../../errors.ts';
import type { FilterClause } from '../filter.ts';
import { queryTerms } from '../engine/query.ts';
import { readMeta, writeMeta } from './schema.ts';
import { CHUNK_COLUMNS, hitFromRow, type ChunkRow, type StatementCache } from '../sql-rows.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { Hit, SearchFilter, SearchOptions } from '../types.ts';
import { vectorModelMismatch } from '../vectors/vector-errors.ts';
import type { SyncVectorsOptions, VectorBackend, VectorStatus, VectorSyncReport } from '../vectors/vector-types.ts';
import { contentKey, DIMENSIONS_KEY, embeddingInput, embedInBatches, MODEL_KEY, toBlob } from '../vectors/vector-sync.ts';

/**
 * The vector tables, created by the first sync (an index never embedded has none).
 * `embeddings` holds one float32 vector per content key (sha256 of model and embedded text), so
 * a chunk whose text did not change finds its vector again after its document is re-ingested
 * (its chunk rows get new ids). `chunk_vectors` maps a chunk to its embedding and goes with the chunk:
 * ON DELETE CASCADE keeps it exact through any ingest, even one made without the extension or
 * without an embedder. Unreferenced embeddings are pruned at the end of each sync.
 */
export const VECTOR_TABLES = `
CREATE TABLE IF NOT EXISTS embeddings (id INTEGER PRIMARY KEY, content_key TEXT NOT NULL UNIQUE, embedding BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS chunk_vectors (
  chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  embedding_id INTEGER NOT NULL
);`;

/** What {@link createSqliteVectors} needs of the index that owns the database. */
export interface SqliteVectorContext {
  db: Database.Database;
  statements: StatementCache;
  path: string;
  tokenizer: TokenizerOptions;
  readonly: boolean;
  /** The index's filter translation (filter.ts), with its access setting. */
  where: (filter: SearchFilter | undefined) => FilterClause;
}

/**
 * The SQLite {@link VectorBackend}: vectors in the index file itself, compared with sqlite-vec's
 * `vec_distance_cosine` inside the same SQL that applies the version, label and access filters
 * (filter.ts), so the k nearest are the k nearest the caller may see. The extension is loaded
 * on first use (the package ships its binary), so commands that never touch vectors never load it.
 *
 * @example
 * const vectors = createSqliteVectors({ db, statements, path, tokenizer, readonly: false, where });
 * await vectors.syncVectors(createHashEmbedder());
 */
export function createSqliteVectors(context: SqliteVectorContext): VectorBackend {
  const { db, statements } = context;
  let loaded = false;
  const loadExtension = async () => {
    if (loaded) return;
    const sqliteVec = await import('sqlite-vec');
    try {
      sqliteVec.load(db);
    } catch (error) {
      throw new AtlasError(
        'index-io',
        `Atlas: could not load the sqlite-vec extension for the index at ${context.path} (${(error as Error).message}). Reinstall with npm ci so the sqlite-vec binary package for this platform is present.`,
      );
    }
    loaded = true;
  };
  const hasTables = () => statements.get("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'chunk_vectors'").pluck().get() === 1;

  const status = (): VectorStatus | undefined => {
    const model = readMeta(db, MODEL_KEY);
    if (model === undefined || !hasTables()) return undefined;
    const counts = statements
      .get('SELECT (SELECT count(*) FROM chunk_vectors) AS vectors, (SELECT count(*) FROM chunks) AS chunks')
      .get() as { vectors: number; chunks: number };
    return { model, dimensions: Number(readMeta(db, DIMENSIONS_KEY) ?? 0), vectors: counts.vectors, missing: counts.chunks - counts.vectors };
  };

  return {
    async vectorStatus() {
      return status();
    },

    async syncVectors(embedder: Embedder, options: SyncVectorsOptions = {}): Promise<VectorSyncReport> {
      if (context.readonly) {
        throw new AtlasError('usage', `Atlas: the index at ${context.path} is open read-only; embedding writes vectors. Run atlas ingest --embed ${embedder.model}.`);
      }
      assertSameModel(readMeta(db, MODEL_KEY), embedder.model, context.path);
      db.exec(VECTOR_TABLES);
      return syncMissing(context, embedder, options);
    },

    async searchVectors(query: string, vector: number[], options: SearchOptions): Promise<Hit[]> {
      // The recorded model and dimensions only (no counts): this runs on every search.
      const model = readMeta(db, MODEL_KEY);
      if (model === undefined || !hasTables()) return [];
      const dimensions = Number(readMeta(db, DIMENSIONS_KEY) ?? 0);
      if (vector.length !== dimensions) {
        throw new AtlasError(
          'index-schema',
          `Atlas: the query vector has ${vector.length} dimensions but the vectors of the index at ${context.path} have ${dimensions} (${model}). Search with --embed ${model}.`,
        );
      }
      if (vector.every((value) => value === 0)) return [];
      await loadExtension();
      const where = context.where(options.filter);
      const rows = statements.get(nearestSql(where.sql)).all(toBlob(vector), ...where.params, options.k) as Array<ChunkRow & { distance: number }>;
      const terms = queryTerms(query, context.tokenizer);
      return rows.map((row) => hitFromRow(row, 1 - row.distance, terms, context.tokenizer));
    },
  };
}

/**
 * Copies into `db` the stored embeddings of `model` from the index file at `from` (a `--rebuild`
 * builds a new file beside the old one: its unchanged chunks then find their vectors by content
 * hash and make no call). Returns how many were copied; 0 when `from` holds no vectors of `model`
 * or cannot be read (a damaged or older file is rebuilt from scratch anyway).
 *
 * @example
 * seedEmbeddings(db, '.atlas/index.db', 'openai:text-embedding-3-small'); // 359
 */
export function seedEmbeddings(db: Database.Database, from: string, model: string): number {
  try {
    db.prepare('ATTACH DATABASE ? AS seed').run(from);
  } catch {
    return 0;
  }
  try {
    const read = (key: string) => db.prepare('SELECT value FROM seed.meta WHERE key = ?').pluck().get(key) as string | undefined;
    if (read(MODEL_KEY) !== model || db.prepare("SELECT count(*) FROM seed.sqlite_master WHERE name = 'embeddings'").pluck().get() !== 1) return 0;
    return db.transaction(() => {
      assertSameModel(readMeta(db, MODEL_KEY), model, 'the new index');
      db.exec(VECTOR_TABLES);
      writeMeta(db, MODEL_KEY, model);
      writeMeta(db, DIMENSIONS_KEY, read(DIMENSIONS_KEY) ?? '0');
      return db.prepare('INSERT OR IGNORE INTO main.embeddings (content_key, embedding) SELECT content_key, embedding FROM seed.embeddings').run().changes;
    }).immediate();
  } catch {
    return 0;
  } finally {
    db.exec('DETACH DATABASE seed');
  }
}

/**
 * The k nearest chunks that pass the filter: distances over the narrow rows first (chunk id,
 * embedding; the filter reads the chunks_for_filters index), the wide chunk rows of the k only.
 * A zero vector has no cosine distance (NULL): it sorts last, as distance 2.
 */
function nearestSql(filterSql: string): string {
  const filterJoin = filterSql === '' ? '' : ' JOIN chunks c INDEXED BY chunks_for_filters ON c.id = v.chunk_id';
  return `WITH nearest AS (
      SELECT v.chunk_id AS id, coalesce(vec_distance_cosine(e.embedding, ?), 2) AS distance
      FROM chunk_vectors v JOIN embeddings e ON e.id = v.embedding_id${filterJoin}
      WHERE 1${filterSql} ORDER BY distance, v.chunk_id LIMIT ?)
    SELECT ${CHUNK_COLUMNS}, nearest.distance FROM nearest JOIN chunks c ON c.id = nearest.id ORDER BY nearest.distance, nearest.id`;
}

/** Throws {@link vectorModelMismatch} when the index records a model other than `model`. */
function assertSameModel(recorded: string | undefined, model: string, path: string): void {
  if (recorded !== undefined && recorded !== model) throw vectorModelMismatch(path, recorded, model);
}

/**
 * Embeds the chunks of the SQLite index that have no vector: a vector stored under the same
 * content key (sha256 of model and text) is linked without a call, the other texts go to the
 * embedder in batches of `maxBatch`, each batch committed on its own transaction, progress
 * reported after each; unreferenced embeddings are pruned at the end. The vector tables exist.
 *
 * @example
 * const report = await syncMissing(context, createHashEmbedder(), { onProgress: console.log });
 */
async function syncMissing(context: SqliteVectorContext, embedder: Embedder, options: SyncVectorsOptions): Promise<VectorSyncReport> {
  const { db, statements } = context;
  const pending = statements
    .get('SELECT c.id, c.heading_path, c.text FROM chunks c LEFT JOIN chunk_vectors v ON v.chunk_id = c.id WHERE v.chunk_id IS NULL ORDER BY c.id')
    .all() as Array<{ id: number; heading_path: string; text: string }>;
  const known = statements.get('SELECT id FROM embeddings WHERE content_key = ?').pluck();
  const link = statements.get('INSERT OR IGNORE INTO chunk_vectors (chunk_id, embedding_id) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ?)');
  const store = statements.get('INSERT INTO embeddings (content_key, embedding) VALUES (?, ?) ON CONFLICT (content_key) DO UPDATE SET embedding = excluded.embedding RETURNING id').pluck();
  const linkAll = (pairs: Array<{ id: number; embeddingId: number }>) => {
    for (const { id, embeddingId } of pairs) link.run(id, embeddingId, id);
  };

  const reused: Array<{ id: number; embeddingId: number }> = [];
  const toEmbed = new Map<string, { text: string; ids: number[] }>();
  for (const row of pending) {
    const text = embeddingInput(row);
    const key = contentKey(embedder.model, text);
    const embeddingId = known.get(key) as number | undefined;
    if (embeddingId !== undefined) reused.push({ id: row.id, embeddingId });
    else if (toEmbed.has(key)) toEmbed.get(key)!.ids.push(row.id);
    else toEmbed.set(key, { text, ids: [row.id] });
  }
  db.transaction(linkAll).immediate(reused);

  let dimensions = readMeta(db, DIMENSIONS_KEY) === undefined ? undefined : Number(readMeta(db, DIMENSIONS_KEY));
  const run = await embedInBatches(embedder, [...toEmbed.entries()], options, { dimensions, location: context.path }, (batch, vectors, fixed) => {
    db.transaction(() => {
      if (readMeta(db, MODEL_KEY) === undefined) writeMeta(db, MODEL_KEY, embedder.model);
      if (readMeta(db, DIMENSIONS_KEY) === undefined) writeMeta(db, DIMENSIONS_KEY, String(fixed));
      batch.forEach(([key, entry], position) => {
        const embeddingId = store.get(key, toBlob(vectors[position]!)) as number;
        linkAll(entry.ids.map((id) => ({ id, embeddingId })));
      });
    }).immediate();
  });
  const { embedded, calls } = run;
  dimensions = run.dimensions;
  db.transaction(() => {
    if (readMeta(db, MODEL_KEY) === undefined) writeMeta(db, MODEL_KEY, embedder.model);
    db.exec('DELETE FROM embeddings WHERE id NOT IN (SELECT embedding_id FROM chunk_vectors)');
  }).immediate();
  const vectors = statements.get('SELECT count(*) FROM chunk_vectors').pluck().get() as number;
  return { model: embedder.model, dimensions: dimensions ?? 0, embedded, reused: reused.length, calls, vectors };
}
