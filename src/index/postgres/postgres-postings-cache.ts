import type { Pool } from 'pg';
import { AtlasError } from '../../errors.ts';
import { skipWords } from '../engine/postings-skips.ts';
import type { PostingsReader, StoredTerm } from '../engine/postings-store.ts';

/** Bytes of postings rows and skip entries a search process keeps by default (all of them at 100k bench chunks: 32 MB of rows, 2.7 MB of skip entries). */
export const POSTGRES_CACHE_BYTES = 256 * 1024 * 1024;

/** A term with every row of its postings, as the cache keeps it. */
interface CachedTerm {
  stored: StoredTerm;
  /** Row keys in order, and each row's bytes (views of one buffer). */
  keys: number[];
  rows: Uint8Array[];
  bytes: number;
}

/** What one search reads: the generation it saw, whether any chunk has an `acl` label, and the postings of its terms. */
export interface PostingsSnapshot {
  generation: string;
  restricted: boolean;
  reader: PostingsReader;
}

/** The index changed between two statements of one search: the search starts again. */
export class StaleGeneration extends Error {}

interface FetchedTerm {
  generation: string;
  chunks: number;
  tokens: string;
  restricted: boolean;
  term: string | null;
  id: number | null;
  df: number | null;
  skips: Buffer | null;
  log: number | null;
  keys: number[] | null;
  lengths: number[] | null;
  data: Buffer | null;
}

/**
 * One statement: the totals and generation, and for each of the terms asked for its skip entries,
 * the natural logarithm of its IDF ratio computed by PostgreSQL (C's `log`, as SQLite's `ln` and
 * FTS5: JavaScript's `Math.log` may differ in the last bit) and all its rows as one buffer.
 */
const TERMS_SQL = `
SELECT t.generation, t.chunks, t.tokens::text AS tokens, t.restricted, p.term, p.id, p.df, p.skips,
  ln(((t.chunks - p.df)::float8 + 0.5) / (p.df::float8 + 0.5)) AS log, r.keys, r.lengths, r.data
FROM postings_totals t
LEFT JOIN postings_terms p ON p.term = ANY($1::text[])
LEFT JOIN LATERAL (
  SELECT array_agg(key ORDER BY key) AS keys, array_agg(length(data) ORDER BY key) AS lengths, string_agg(data, ''::bytea ORDER BY key) AS data
  FROM postings WHERE term_id = p.id
) r ON p.id IS NOT NULL`;

/**
 * The postings of an index in PostgreSQL as the engine's search reads them (postings-search.ts,
 * synchronously): a search's terms are read with all their rows in one statement, and kept for
 * the next searches of the same generation (postings_totals.generation, a new value with each
 * ingest that changes the index), up to `maxBytes` (least recently used terms dropped first). A
 * search whose terms are all kept reads nothing here ({@link kept}: it checks the generation
 * with the rows of its hits); a new generation empties the cache.
 *
 * @example
 * const cache = createPostgresPostingsCache();
 * const snapshot = await cache.read(pool, ['retri', 'backoff']);
 * topByBm25(snapshot.reader, { tokens: ['retri', 'backoff'], weights, k: 10 });
 */
export function createPostgresPostingsCache(maxBytes = POSTGRES_CACHE_BYTES) {
  let generation: string | undefined;
  let totals = { chunks: 0, tokens: 0 };
  let restricted = false;
  // By term, least recently used first (null: the index does not hold it); by term id.
  const terms = new Map<string, CachedTerm | null>();
  // Per IDF ratio its logarithm, as PostgreSQL computed it.
  const logs = new Map<number, number>();
  let bytes = 0;

  const reset = (row: FetchedTerm) => {
    generation = row.generation;
    totals = { chunks: row.chunks, tokens: Number(row.tokens) };
    restricted = row.restricted;
    terms.clear();
    logs.clear();
    bytes = 0;
  };
  const keep = (asked: readonly string[], rows: readonly FetchedTerm[]) => {
    const found = new Map<string, FetchedTerm>();
    for (const row of rows) if (row.term !== null) found.set(row.term, row);
    for (const term of asked) {
      const row = found.get(term);
      if (row === undefined) {
        terms.set(term, null);
        continue;
      }
      const cached = cachedTerm(row);
      terms.set(term, cached);
      logs.set((totals.chunks - cached.stored.df + 0.5) / (cached.stored.df + 0.5), row.log!);
      bytes += cached.bytes;
    }
  };
  /** Drops the least recently used terms while over budget, never one of `current`. */
  const trim = (current: ReadonlySet<string>) => {
    for (const [term, cached] of terms) {
      if (bytes <= maxBytes) break;
      if (current.has(term)) continue;
      terms.delete(term);
      if (cached !== null) bytes -= cached.bytes;
    }
  };

  return {
    /** Bytes of postings kept. */
    get bytes() {
      return bytes;
    },
    /**
     * The snapshot of `tokens` from what is kept, without a statement, when every one of them is
     * kept: valid for the generation last read, which the search must check in a later
     * statement (its hits' rows carry the generation; on a mismatch it calls {@link read}).
     */
    kept(tokens: readonly string[]): PostingsSnapshot | undefined {
      if (generation === undefined) return undefined;
      const wanted = [...new Set(tokens)];
      if (!wanted.every((term) => terms.has(term))) return undefined;
      for (const term of wanted) {
        const cached = terms.get(term)!;
        terms.delete(term);
        terms.set(term, cached);
      }
      return { generation, restricted, reader: snapshotReader(wanted, terms, totals, logs) };
    },
    /**
     * Reads what a search of `tokens` needs that is not kept, and checks the generation: the
     * snapshot's reader serves the search until the next call.
     */
    async read(pool: Pick<Pool, 'query'>, tokens: readonly string[]): Promise<PostingsSnapshot> {
      const wanted = [...new Set(tokens)];
      for (;;) {
        // Recently used: moved to the end.
        for (const term of wanted) {
          const cached = terms.get(term);
          if (cached === undefined) continue;
          terms.delete(term);
          terms.set(term, cached);
        }
        const missing = wanted.filter((term) => !terms.has(term));
        const result = await pool.query<FetchedTerm>(TERMS_SQL, [missing]);
        const first = result.rows[0]!;
        if (first.generation !== generation) {
          reset(first);
          keep(missing, result.rows);
          // The other terms were kept for an older generation: read again.
          if (missing.length < wanted.length) continue;
        } else keep(missing, result.rows);
        trim(new Set(wanted));
        return { generation: generation!, restricted, reader: snapshotReader(wanted, terms, totals, logs) };
      }
    },
  };
}

/**
 * A reader of `wanted`'s postings as `terms` holds them now: a search may wait for other
 * statements (its filter, the chunks it shows) while another search changes the cache.
 */
function snapshotReader(wanted: readonly string[], terms: ReadonlyMap<string, CachedTerm | null>, totals: { chunks: number; tokens: number }, allLogs: ReadonlyMap<number, number>): PostingsReader {
  const mine = new Map<string, CachedTerm>();
  const byId = new Map<number, CachedTerm>();
  const logs = new Map<number, number>();
  for (const term of wanted) {
    const cached = terms.get(term);
    if (!cached) continue;
    mine.set(term, cached);
    byId.set(cached.stored.id, cached);
    const ratio = (totals.chunks - cached.stored.df + 0.5) / (cached.stored.df + 0.5);
    logs.set(ratio, allLogs.get(ratio)!);
  }
  return {
    totals: () => totals,
    terms(asked) {
      const found = new Map<string, StoredTerm>();
      for (const term of asked) {
        const cached = mine.get(term);
        if (cached !== undefined) found.set(term, cached.stored);
      }
      return found;
    },
    rows(termId, fromKey, limit) {
      const cached = byId.get(termId);
      if (cached === undefined) return [];
      const found: Array<[number, Uint8Array]> = [];
      for (let at = firstAtOrAfter(cached.keys, fromKey); at < cached.keys.length && found.length < limit; at += 1) found.push([cached.keys[at]!, cached.rows[at]!]);
      return found;
    },
    logs: (values) =>
      values.map((value) => {
        const log = logs.get(value);
        if (log === undefined) throw new AtlasError('internal', `Atlas: no logarithm was read for the IDF ratio ${value}; the search read its terms from another generation.`);
        return log;
      }),
  };
}

function cachedTerm(row: FetchedTerm): CachedTerm {
  const keys = row.keys ?? [];
  const rows: Uint8Array[] = [];
  let offset = 0;
  for (const length of row.lengths ?? []) {
    rows.push(row.data!.subarray(offset, offset + length));
    offset += length;
  }
  const skips = row.skips!;
  return { stored: { id: row.id!, df: row.df!, skips: skipWords(skips) }, keys, rows, bytes: offset + skips.byteLength };
}

/** The first index of `keys` (ascending) holding at least `key`. */
function firstAtOrAfter(keys: readonly number[], key: number): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (keys[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}
