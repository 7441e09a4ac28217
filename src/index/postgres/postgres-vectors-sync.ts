import type { Pool, PoolClient } from 'pg';
import type { Embedder } from '../../embed/types.ts';
import { readPostgresMeta, writePostgresMeta } from './postgres-schema.ts';
import { inIndexTransaction } from './postgres-transaction.ts';
import type { PostgresTarget } from './postgres-url.ts';
import type { SyncVectorsOptions, VectorSyncReport } from '../vectors/vector-types.ts';
import { contentKey, DIMENSIONS_KEY, embeddingInput, embedInBatches, MODEL_KEY } from '../vectors/vector-sync.ts';

/** pgvector's HNSW index takes vectors of at most this many dimensions. */
export const HNSW_MAX_DIMENSIONS = 2000;

/** What the sync needs of the index: its pool, where it is, and the schema of the `vector` type. */
export interface PostgresVectorContext {
  pool: Pool;
  target: PostgresTarget;
  /** The quoted schema pgvector lives in (`"public"`). */
  vectorSchema: string;
}

/**
 * Embeds the chunks of the PostgreSQL index that have no vector, as the SQLite sync does
 * (vector-sync.ts): a vector stored under the same content key (sha256 of model and text) is
 * copied without a call, the other texts go to the embedder in batches of `maxBatch`, each batch
 * committed in its own transaction, progress reported after each; unreferenced embeddings are
 * pruned at the end, and the HNSW index (cosine) is made once the dimensions are known (at most
 * {@link HNSW_MAX_DIMENSIONS}; above, searches scan exactly). The vector tables exist.
 *
 * @example
 * const report = await syncPostgresMissing(context, createHashEmbedder(), {});
 */
export async function syncPostgresMissing(context: PostgresVectorContext, embedder: Embedder, options: SyncVectorsOptions): Promise<VectorSyncReport> {
  const { pool, target, vectorSchema } = context;
  const pending = (
    await pool.query<{ id: number; heading_path: string; text: string }>(
      'SELECT c.id, c.heading_path, c.text FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.id = c.id) ORDER BY c.id',
    )
  ).rows;
  const keyed = pending.map((row) => ({ id: row.id, text: embeddingInput(row), key: '' }));
  for (const row of keyed) row.key = contentKey(embedder.model, row.text);
  const known = new Set(
    (await pool.query<{ content_key: string }>('SELECT content_key FROM embeddings WHERE content_key = ANY($1::text[])', [[...new Set(keyed.map((row) => row.key))]])).rows.map(
      (row) => row.content_key,
    ),
  );
  const reused = keyed.filter((row) => known.has(row.key));
  const toEmbed = new Map<string, { text: string; ids: number[] }>();
  for (const row of keyed) {
    if (known.has(row.key)) continue;
    const entry = toEmbed.get(row.key);
    if (entry === undefined) toEmbed.set(row.key, { text: row.text, ids: [row.id] });
    else entry.ids.push(row.id);
  }
  if (reused.length > 0) await inIndexTransaction(pool, target, (client) => link(client, reused));

  const recorded = await readPostgresMeta(pool, DIMENSIONS_KEY);
  let dimensions = recorded === undefined ? undefined : Number(recorded);
  // Vectors taken back after a rebuild have their dimensions, which the new index has not recorded yet.
  if (dimensions === undefined && reused.length > 0) {
    const stored = await pool.query<{ dimensions: number }>(`SELECT ${vectorSchema}.vector_dims(embedding) AS dimensions FROM embeddings WHERE content_key = $1`, [reused[0]!.key]);
    dimensions = stored.rows[0]?.dimensions;
  }
  const run = await embedInBatches(embedder, [...toEmbed.entries()], options, { dimensions, location: target.shown }, (batch, vectors, fixed) =>
    inIndexTransaction(pool, target, async (client) => {
      await recordModel(client, embedder.model, fixed);
      await client.query(
        `INSERT INTO embeddings (content_key, embedding) SELECT p.key, p.vector::${vectorSchema}.vector FROM unnest($1::text[], $2::text[]) AS p(key, vector)
         ON CONFLICT (content_key) DO UPDATE SET embedding = excluded.embedding`,
        [batch.map(([key]) => key), vectors.map(vectorLiteral)],
      );
      await link(
        client,
        batch.flatMap(([key, entry]) => entry.ids.map((id) => ({ id, key }))),
      );
    }),
  );
  const { embedded, calls } = run;
  dimensions = run.dimensions;
  await inIndexTransaction(pool, target, async (client) => {
    await recordModel(client, embedder.model, dimensions);
    await client.query('DELETE FROM embeddings e WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.content_key = e.content_key)');
    if (dimensions !== undefined && dimensions <= HNSW_MAX_DIMENSIONS) {
      await client.query(
        `CREATE INDEX IF NOT EXISTS chunk_vectors_hnsw ON chunk_vectors USING hnsw ((embedding::${vectorSchema}.vector(${dimensions})) ${vectorSchema}.vector_cosine_ops)`,
      );
    }
  });
  const vectors = Number((await pool.query<{ count: string }>('SELECT count(*) AS count FROM chunk_vectors')).rows[0]!.count);
  return { model: embedder.model, dimensions: dimensions ?? 0, embedded, reused: reused.length, calls, vectors };
}

/** Gives each chunk that still exists the stored embedding of its content key. */
async function link(client: PoolClient, pairs: Array<{ id: number; key: string }>): Promise<void> {
  await client.query(
    `INSERT INTO chunk_vectors (id, content_key, embedding)
     SELECT p.id, e.content_key, e.embedding FROM unnest($1::int[], $2::text[]) AS p(id, key) JOIN embeddings e ON e.content_key = p.key
     WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.id = p.id)
     ON CONFLICT (id) DO NOTHING`,
    [pairs.map((pair) => pair.id), pairs.map((pair) => pair.key)],
  );
}

/** Writes the model, and the dimensions once known, when the index records none yet. */
async function recordModel(client: PoolClient, model: string, dimensions: number | undefined): Promise<void> {
  if ((await readPostgresMeta(client, MODEL_KEY)) === undefined) await writePostgresMeta(client, MODEL_KEY, model);
  if (dimensions !== undefined && (await readPostgresMeta(client, DIMENSIONS_KEY)) === undefined) await writePostgresMeta(client, DIMENSIONS_KEY, String(dimensions));
}

/**
 * A vector as pgvector's text form.
 *
 * @example
 * vectorLiteral([1, 0.5, -2]); // '[1,0.5,-2]'
 */
export function vectorLiteral(vector: number[]): string {
  return `[${vector.join(',')}]`;
}
