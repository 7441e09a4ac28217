import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Embedder } from '../embed/types.ts';
import { AtlasError } from '../errors.ts';
import type { FilterClause } from './filter.ts';
import { HEADING_PATH_SEPARATOR } from './heading-path.ts';
import { queryTerms } from './query.ts';
import { readMeta, writeMeta } from './schema.ts';
import { makeSnippet } from './snippet.ts';
import { CHUNK_COLUMNS, chunkFromRow, type ChunkRow, type StatementCache } from './sqlite-rows.ts';
import type { TokenizerOptions } from './tokenize.ts';
import type { Hit, SearchFilter, SearchOptions } from './types.ts';
import { vectorModelMismatch } from './vector-errors.ts';
import type { SyncVectorsOptions, VectorBackend, VectorStatus, VectorSyncReport } from './vector-types.ts';

/**
 * The vector tables, created by the first sync (an index never embedded has none).
 * `embeddings` holds one float32 vector per content key (sha256 of model and embedded text), so
 * a chunk whose text did not change finds its vector again after its document is re-ingested
 * (its chunk rows get new ids). `chunk_vectors` maps a chunk to its embedding and goes with the chunk:
 * ON DELETE CASCADE keeps it exact through any ingest, even one made without the extension or
 * without an embedder. Unreferenced embeddings are pruned at the end of each sync.
 */
const VECTOR_TABLES = `
CREATE TABLE IF NOT EXISTS embeddings (id INTEGER PRIMARY KEY, content_key TEXT NOT NULL UNIQUE, embedding BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS chunk_vectors (
  chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  embedding_id INTEGER NOT NULL
);`;

/** Meta keys of the recorded model and dimensions. */
const MODEL_KEY = 'embedModel';
const DIMENSIONS_KEY = 'embedDimensions';

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

/** The text a chunk is embedded as: its heading path (title first), a blank line, its text. */
export function embeddingInput(row: { heading_path: string; text: string }): string {
  return `${(JSON.parse(row.heading_path) as string[]).join(HEADING_PATH_SEPARATOR)}\n\n${row.text}`;
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
      return rows.map((row) => {
        const chunk = chunkFromRow(row);
        let snippet: string | undefined;
        return Object.defineProperty({ ...chunk, score: 1 - row.distance }, 'snippet', {
          enumerable: true,
          get: () => (snippet ??= makeSnippet(row.text, terms, context.tokenizer)),
        }) as Hit;
      });
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

/** Embeds the chunks without a vector, reusing stored vectors by content key; one transaction per batch. */
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
  const entries = [...toEmbed.entries()];
  const batchSize = Math.max(1, embedder.maxBatch);
  let embedded = 0;
  let calls = 0;
  for (let start = 0; start < entries.length; start += batchSize) {
    const batch = entries.slice(start, start + batchSize);
    const vectors = await embedBatch(embedder, batch.map(([, entry]) => entry.text), options, { embedded, total: entries.length });
    calls += 1;
    dimensions = checkVectors(vectors, batch.length, dimensions, embedder.model, context.path);
    const fixed = dimensions;
    db.transaction(() => {
      if (readMeta(db, MODEL_KEY) === undefined) writeMeta(db, MODEL_KEY, embedder.model);
      if (readMeta(db, DIMENSIONS_KEY) === undefined) writeMeta(db, DIMENSIONS_KEY, String(fixed));
      batch.forEach(([key, entry], position) => {
        const embeddingId = store.get(key, toBlob(vectors[position]!)) as number;
        linkAll(entry.ids.map((id) => ({ id, embeddingId })));
      });
    }).immediate();
    embedded += batch.length;
    options.onProgress?.({ embedded, total: entries.length });
  }
  db.transaction(() => {
    if (readMeta(db, MODEL_KEY) === undefined) writeMeta(db, MODEL_KEY, embedder.model);
    db.exec('DELETE FROM embeddings WHERE id NOT IN (SELECT embedding_id FROM chunk_vectors)');
  }).immediate();
  const vectors = statements.get('SELECT count(*) FROM chunk_vectors').pluck().get() as number;
  return { model: embedder.model, dimensions: dimensions ?? 0, embedded, reused: reused.length, calls, vectors };
}

/** One embedding call; a failure (after the AI SDK's retries) becomes an AtlasError saying what was kept and how to resume. */
async function embedBatch(embedder: Embedder, texts: string[], options: SyncVectorsOptions, done: { embedded: number; total: number }): Promise<number[][]> {
  try {
    return await embedder.embed(texts, options.abortSignal ? { abortSignal: options.abortSignal } : {});
  } catch (error) {
    if (error instanceof AtlasError) throw error;
    throw new AtlasError(
      'model-call',
      `Atlas: embedding with ${embedder.model} failed after ${done.embedded} of ${done.total} texts: ${(error as Error).message}. The text index and the ${done.embedded} vectors made are kept; run the same atlas ingest --embed ${embedder.model} again to embed the rest.`,
      { cause: error },
    );
  }
}

/** Checks one batch's vectors (count, equal lengths, finite numbers, the recorded dimensions); returns the dimensions. */
function checkVectors(vectors: number[][], expected: number, recorded: number | undefined, model: string, path: string): number {
  if (vectors.length !== expected) {
    throw new AtlasError('model-call', `Atlas: the embedding model ${model} returned ${vectors.length} vectors for ${expected} texts. Check the model and the server, then run the ingest again (done batches are kept).`);
  }
  const dimensions = recorded ?? vectors[0]?.length ?? 0;
  for (const vector of vectors) {
    if (vector.length !== dimensions || dimensions === 0) {
      throw new AtlasError(
        'index-schema',
        `Atlas: the embedding model ${model} returned vectors of ${vector.length} dimensions, but the index at ${path} holds ${dimensions}. Use the model the index was built with, or rebuild: atlas ingest <docs-dir> --db ${path} --rebuild --embed ${model}`,
      );
    }
    if (!vector.every(Number.isFinite)) {
      throw new AtlasError('model-call', `Atlas: the embedding model ${model} returned a vector with a value that is not a finite number. Check the model and the server.`);
    }
  }
  return dimensions;
}

/** sha256 of model and text: the key under which a vector is stored and found again. */
function contentKey(model: string, text: string): string {
  return createHash('sha256').update(model).update('\u0000').update(text).digest('base64url');
}

function toBlob(vector: number[]): Buffer {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}
