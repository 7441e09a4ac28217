import type { ClientBase, Pool } from 'pg';
import type { Embedder } from '../../embed/types.ts';
import { AtlasError } from '../../errors.ts';
import { filterClause } from '../filter.ts';
import { positional } from './postgres-sql.ts';
import { readPostgresMeta } from './postgres-schema.ts';
import type { PostgresTarget } from './postgres-url.ts';
import { ensurePgvector, pgvectorInstall, type PgvectorInstall } from './postgres-vectors-extension.ts';
import { inIndexTransaction, inTransaction } from './postgres-transaction.ts';
import { HNSW_MAX_DIMENSIONS, syncPostgresMissing, vectorLiteral } from './postgres-vectors-sync.ts';
import { queryTerms } from '../engine/query.ts';
import { CHUNK_COLUMNS, hitFromRow, type ChunkRow } from '../sql-rows.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { Hit, SearchOptions } from '../types.ts';
import { vectorModelMismatch } from '../vectors/vector-errors.ts';
import { DIMENSIONS_KEY, MODEL_KEY } from '../vectors/vector-sync.ts';
import type { SyncVectorsOptions, VectorBackend, VectorStatus, VectorSyncReport } from '../vectors/vector-types.ts';

/** pgvector's most candidates an HNSW scan keeps (`hnsw.ef_search`). */
const MAX_EF_SEARCH = 1000;

/**
 * Candidates an HNSW scan keeps (`hnsw.ef_search`, or k when larger). pgvector's default of 40
 * gave the exact top 5 on 31-32 of 43 musique-dev questions with the hash embedder (overlap 0.94);
 * 100 gave it on 43 of 43 (docs/postgres.md).
 */
export const DEFAULT_EF_SEARCH = 100;

/**
 * The vector tables, made by the first sync in the index's schema (an index never embedded has
 * none, and needs no pgvector). `embeddings` keeps one vector per content key (sha256 of model
 * and embedded text), so a chunk whose text did not change finds its vector again after its
 * document is re-ingested (its chunk rows get new ids); `chunk_vectors` holds each chunk's copy,
 * goes with the chunk (ON DELETE CASCADE), and carries the HNSW index the search orders by.
 * The column type has no dimensions (they are recorded in meta once known); the HNSW index is
 * on `embedding::vector(<dimensions>)`.
 */
function vectorTables(vectorSchema: string): string {
  return `
CREATE TABLE IF NOT EXISTS embeddings (content_key text PRIMARY KEY, embedding ${vectorSchema}.vector NOT NULL);
CREATE TABLE IF NOT EXISTS chunk_vectors (
  id integer PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  content_key text NOT NULL,
  embedding ${vectorSchema}.vector NOT NULL
);
CREATE INDEX IF NOT EXISTS chunk_vectors_by_key ON chunk_vectors (content_key);`;
}

/** Where a rebuild keeps the stored embeddings for the first sync of the new index. */
const PREVIOUS_EMBEDDINGS = 'embeddings_previous';

/**
 * Keeps the stored embeddings of an index about to be rebuilt (`--rebuild`), in the rebuild's
 * transaction: the table is renamed out of the way of the drop, and the first sync of the new
 * index takes the vectors back by content key (so unchanged text makes no embedding call, as a
 * SQLite rebuild seeds its new file from the old one) and drops it. Keys hold the model, so
 * vectors of another model are never used, and are pruned by that sync.
 *
 * @example
 * await keepEmbeddingsForRebuild(client); // then dropPostgresIndex(client)
 */
export async function keepEmbeddingsForRebuild(client: ClientBase): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${PREVIOUS_EMBEDDINGS}`);
  const found = await client.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'embeddings' AND column_name IN ('content_key', 'embedding')",
  );
  if (found.rows[0]!.count === 2) await client.query(`ALTER TABLE embeddings RENAME TO ${PREVIOUS_EMBEDDINGS}`);
}

/** Takes back the embeddings {@link keepEmbeddingsForRebuild} kept, once the vector tables exist. */
async function restoreEmbeddings(client: ClientBase): Promise<void> {
  const kept = await client.query<{ found: boolean }>(`SELECT to_regclass('${PREVIOUS_EMBEDDINGS}') IS NOT NULL AS found`);
  if (!kept.rows[0]!.found) return;
  // Kept vectors only save calls: a table that cannot be read back (another layout) is dropped, and the sync embeds.
  await client.query('SAVEPOINT restore_embeddings');
  try {
    await client.query(`INSERT INTO embeddings (content_key, embedding) SELECT content_key, embedding FROM ${PREVIOUS_EMBEDDINGS} ON CONFLICT (content_key) DO NOTHING`);
    await client.query('RELEASE SAVEPOINT restore_embeddings');
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT restore_embeddings');
  }
  await client.query(`DROP TABLE ${PREVIOUS_EMBEDDINGS}`);
}

/** What {@link createPostgresVectors} needs of the index that owns the connection pool. */
export interface PostgresVectorOptions {
  target: PostgresTarget;
  readonly: boolean;
  /** `hnsw.ef_search` of a vector search (default {@link DEFAULT_EF_SEARCH}; at most 1000). */
  efSearch?: number;
  /** Runs `work` once the index is ready, turning any failure into an AtlasError (postgres.ts's guard). */
  run: <T>(work: (tokenizer: TokenizerOptions, pool: Pool) => Promise<T>) => Promise<T>;
}

/**
 * The PostgreSQL {@link VectorBackend}: vectors in the index's schema with pgvector, compared by
 * cosine distance (`<=>`) inside the same SQL that applies the version, label and access filters
 * (filter.ts), the k nearest ordered by an HNSW index (`vector_cosine_ops`, iterative scan in
 * strict order, so a filter that rejects most neighbours still yields k). `CREATE EXTENSION
 * vector` is tried only by the first sync; a server without pgvector is an AtlasError naming the
 * server and the fix (postgres-vectors-extension.ts). Reading an index without vectors needs no
 * extension: its status is undefined and a vector search finds nothing.
 *
 * @example
 * const vectors = createPostgresVectors({ target, readonly: false, run: guard });
 * await vectors.syncVectors(createHashEmbedder());
 */
export function createPostgresVectors(options: PostgresVectorOptions): VectorBackend {
  const { target, run } = options;
  const efSearch = options.efSearch ?? DEFAULT_EF_SEARCH;
  if (!Number.isInteger(efSearch) || efSearch < 1 || efSearch > MAX_EF_SEARCH) {
    throw new AtlasError('usage', `Atlas: efSearch of the PostgreSQL index on ${target.shown} must be an integer from 1 to ${MAX_EF_SEARCH}, got ${efSearch}. Leave it out for ${DEFAULT_EF_SEARCH}.`);
  }
  let install: PgvectorInstall | undefined;
  const hasTables = async (pool: Pool) => (await pool.query<{ found: boolean }>("SELECT to_regclass('chunk_vectors') IS NOT NULL AS found")).rows[0]!.found;
  const installOf = async (pool: Pool) => (install ??= await pgvectorInstall(pool));

  return {
    async vectorStatus(): Promise<VectorStatus | undefined> {
      return run(async (_tokenizer, pool) => {
        const model = await readPostgresMeta(pool, MODEL_KEY);
        if (model === undefined || !(await hasTables(pool))) return undefined;
        const counts = (
          await pool.query<{ vectors: number; chunks: number; dimensions: string | null }>(
            `SELECT (SELECT count(*) FROM chunk_vectors)::int AS vectors, (SELECT count(*) FROM chunks)::int AS chunks, (SELECT value FROM meta WHERE key = '${DIMENSIONS_KEY}') AS dimensions`,
          )
        ).rows[0]!;
        return { model, dimensions: Number(counts.dimensions ?? 0), vectors: counts.vectors, missing: counts.chunks - counts.vectors };
      });
    },

    async syncVectors(embedder: Embedder, syncOptions: SyncVectorsOptions = {}): Promise<VectorSyncReport> {
      if (options.readonly) {
        throw new AtlasError('usage', `Atlas: the index on ${target.shown} is open read-only; embedding writes vectors. Run atlas ingest --embed ${embedder.model}.`);
      }
      return run(async (_tokenizer, pool) => {
        const recorded = await readPostgresMeta(pool, MODEL_KEY);
        if (recorded !== undefined && recorded !== embedder.model) throw vectorModelMismatch(target.shown, recorded, embedder.model);
        install = await inIndexTransaction(pool, target, async (client) => {
          const made = await ensurePgvector(client, target);
          await client.query(vectorTables(made.schema));
          await restoreEmbeddings(client);
          return made;
        });
        return syncPostgresMissing({ pool, target, vectorSchema: install.schema }, embedder, syncOptions);
      });
    },

    async searchVectors(query: string, vector: number[], searchOptions: SearchOptions): Promise<Hit[]> {
      return run(async (tokenizer, pool) => {
        const meta = (
          await pool.query<{ model: string | null; dimensions: string | null; found: boolean }>(
            `SELECT (SELECT value FROM meta WHERE key = '${MODEL_KEY}') AS model, (SELECT value FROM meta WHERE key = '${DIMENSIONS_KEY}') AS dimensions, to_regclass('chunk_vectors') IS NOT NULL AS found`,
          )
        ).rows[0]!;
        if (meta.model === null || !meta.found || meta.dimensions === null) return [];
        const dimensions = Number(meta.dimensions);
        if (vector.length !== dimensions) {
          throw new AtlasError(
            'index-schema',
            `Atlas: the query vector has ${vector.length} dimensions but the vectors of the index at ${target.shown} have ${dimensions} (${meta.model}). Search with --embed ${meta.model}.`,
          );
        }
        if (vector.every((value) => value === 0)) return [];
        const found = await installOf(pool);
        if (found === undefined) return [];
        const { schema } = found;
        const where = positional(filterClause(searchOptions.filter, 'c'), 2);
        const rows = await inTransaction(pool, async (client) => {
          if (dimensions <= HNSW_MAX_DIMENSIONS && found.iterativeScan) {
            // Keep scanning the graph until k rows pass the filter, in exact distance order.
            await client.query("SELECT set_config('hnsw.iterative_scan', 'strict_order', true), set_config('hnsw.ef_search', $1, true)", [
              String(Math.min(MAX_EF_SEARCH, Math.max(efSearch, searchOptions.k))),
            ]);
          }
          const result = await client.query<ChunkRow & { distance: number }>(
            `SELECT ${CHUNK_COLUMNS}, (v.embedding::${schema}.vector(${dimensions})) OPERATOR(${schema}.<=>) $1::${schema}.vector(${dimensions}) AS distance
             FROM chunk_vectors v JOIN chunks c ON c.id = v.id
             WHERE true${where.sql}
             ORDER BY distance, v.id LIMIT $2`,
            [vectorLiteral(vector), searchOptions.k, ...where.params],
          );
          return result.rows;
        });
        const terms = queryTerms(query, tokenizer);
        return rows.map((row) => {
          // A zero vector has no cosine distance (NaN): it scores as distance 2, as in SQLite.
          const distance = Number.isNaN(row.distance) ? 2 : row.distance;
          return hitFromRow(row, 1 - distance, terms, tokenizer);
        });
      });
    },
  };
}
