import type { Pool } from 'pg';
import { StaleGeneration } from './postgres-postings-cache.ts';
import { positional, type FilterSql } from './postgres-sql.ts';

/** Filters whose passing chunks are kept per generation (least recently used dropped first). */
const MAX_FILTERS = 8;

/** Whether chunk `id` passes the filter it was read for. */
export type FilterVerdict = (id: number) => boolean;

/**
 * Which chunks pass a filter, for the engine's `accept` (asked only of a chunk about to enter the
 * top k, so the filter applies before the cut): the ids passing the filter's own SQL
 * (filter.ts, over `chunk_search`), read in one statement the first time a generation of the
 * index is searched with that filter, kept as bits for its next searches. A statement that sees
 * another generation than the search's throws {@link StaleGeneration} (the search starts again).
 *
 * @example
 * const bits = createFilterBits();
 * const passes = await bits.verdict(pool, filterClause({ version: '3.x' }, 'c', { restricted: false }), generation);
 * passes(812); // true when chunk 812 applies to 3.x
 */
export function createFilterBits() {
  let cachedGeneration: string | undefined;
  const filters = new Map<string, Uint8Array>();
  return {
    async verdict(pool: Pick<Pool, 'query'>, where: FilterSql, generation: string): Promise<FilterVerdict> {
      if (cachedGeneration !== generation) {
        filters.clear();
        cachedGeneration = generation;
      }
      const key = `${where.sql}\u0000${JSON.stringify(where.params)}`;
      let bits = filters.get(key);
      if (bits === undefined) {
        const clause = positional(where, 0);
        const result = await pool.query<{ generation: string; ids: string | null }>(
          `SELECT t.generation, (SELECT string_agg(c.id::text, ',') FROM chunk_search c WHERE true${clause.sql}) AS ids FROM postings_totals t`,
          clause.params,
        );
        if (result.rows[0]!.generation !== generation) throw new StaleGeneration();
        bits = bitsOf(result.rows[0]!.ids);
        if (filters.size >= MAX_FILTERS) filters.delete(filters.keys().next().value!);
      } else filters.delete(key);
      filters.set(key, bits);
      const passing = bits;
      return (id) => (passing[id >>> 3]! & (1 << (id & 7))) !== 0;
    },
  };
}

/** Bits of the comma-separated ids (none when null). */
function bitsOf(ids: string | null): Uint8Array {
  const list = ids === null ? [] : ids.split(',').map(Number);
  let largest = 0;
  for (const id of list) largest = Math.max(largest, id);
  const bits = new Uint8Array((largest >>> 3) + 1);
  for (const id of list) bits[id >>> 3] = bits[id >>> 3]! | (1 << (id & 7));
  return bits;
}
