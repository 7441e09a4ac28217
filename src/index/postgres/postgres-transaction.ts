// Transactions on one client of a pool, as every PostgreSQL writer and the vector search run them.
import type { Pool, PoolClient } from 'pg';
import type { PostgresTarget } from './postgres-url.ts';

/**
 * Runs `work` on one client of `pool` in a transaction: committed when it resolves, rolled back
 * when it throws (its error passes through), the client released either way.
 *
 * @example
 * const rows = await inTransaction(pool, async (client) => (await client.query('SELECT 1 AS one')).rows);
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` in a transaction that holds the index's writer lock (the one an ingest takes), so
 * a batch of vectors and a text ingest never interleave.
 *
 * @example
 * await inIndexTransaction(pool, target, (client) => client.query('DELETE FROM embeddings'));
 */
export function inIndexTransaction<T>(pool: Pool, target: PostgresTarget, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    // One writer per index at a time; readers go on reading the committed state.
    await client.query('SELECT pg_advisory_xact_lock(hashtext(current_database() || $1))', [target.schema]);
    return work(client);
  });
}
