import type { Pool } from 'pg';
import { AtlasError } from '../../errors.ts';
import type { Definitions } from '../analysis/definitions.ts';
import { DEFINER_WINDOW, putDefinitionsFirst, WIDE_DEFINER_WINDOW } from '../analysis/definitions-first.ts';
import { createFts5Tokenizer } from '../analysis/fts5-tokens.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import { createRankScratch, topByBm25, type ScoredId } from '../engine/postings-search.ts';
import { buildSearchQuery, type SearchQuery } from '../engine/query.ts';
import { documentFrequencies, type DocumentFrequencies } from '../engine/term-frequencies.ts';
import { filterClause } from '../filter.ts';
import { CHUNK_COLUMNS, hitFromRow, type ChunkRow } from '../sql-rows.ts';
import type { Hit, SearchOptions } from '../types.ts';
import { createFilterBits, type FilterVerdict } from './postgres-filter-bits.ts';
import { createPostgresPostingsCache, StaleGeneration, type PostingsSnapshot } from './postgres-postings-cache.ts';
import { positional } from './postgres-sql.ts';

/** At most this many defining chunks are looked for in the window of one query. */
const MAX_DEFINER_IDS = 10_000;
const NO_DEFINITIONS: Definitions = { headings: [], lines: [] };
/** Times a search starts again because an ingest committed between its statements. */
const MAX_ATTEMPTS = 5;

/** Options of {@link createPostgresSearch}. */
export interface PostgresSearchOptions {
  /** The BM25 column weights (title, heading, headings between, body, identifier expansions). */
  weights: readonly number[];
  /** Bytes of postings kept between searches (postgres-postings-cache.ts). */
  cacheBytes?: number;
}

/**
 * The search of the PostgreSQL index, the SQLite index's search over the same engine: the
 * query's tokens (the shared tokenizer, FTS5's) are ranked by BM25 as FTS5 scores them with
 * MaxScore pruning (postings-search.ts) over Atlas's postings read from PostgreSQL and kept per
 * generation (postgres-postings-cache.ts); filters (version, labels, the principal's access) are
 * checked for each chunk about to enter the top k (postgres-filter-bits.ts), so they apply before
 * the cut; the chunk defining an identifier the query names goes first (definitions-first.ts);
 * only the k chunks shown are read in full. Every statement reads the generation beside its data:
 * a search that sees an ingest commit between two of its statements starts again, so it never
 * mixes two versions of the index. A search of kept terms costs one statement (its hits).
 *
 * @example
 * const search = createPostgresSearch(pool, DEFAULT_TOKENIZER, { weights: BM25_WEIGHTS });
 * await search.search('ORB-1202', { k: 5, filter: { version: '3.x' } });
 */
export function createPostgresSearch(pool: Pool, tokenizer: TokenizerOptions, options: PostgresSearchOptions) {
  const cache = createPostgresPostingsCache(options.cacheBytes);
  const filterBits = createFilterBits();
  const tokens = createFts5Tokenizer({ porter: tokenizer.porter, spaceless: 'query' });
  const scratch = createRankScratch();
  const { weights } = options;

  const topIds = (snapshot: PostingsSnapshot, built: SearchQuery, k: number, accept: FilterVerdict | undefined): ScoredId[] =>
    topByBm25(snapshot.reader, { tokens: built.terms.flatMap((term) => tokens.tokens(term)), weights, k, scratch, ...(accept ? { accept } : {}) });

  /** Rows of `sql` (over `$1..`) and the generation beside them, checked against the search's. */
  const rowsAt = async <T>(generation: string, sql: string, params: unknown[]): Promise<T[]> => {
    const result = await pool.query<T & { generation: string }>(`SELECT t.generation, r.* FROM postings_totals t LEFT JOIN LATERAL (${sql}) r ON true`, params);
    if (result.rows[0]?.generation !== generation) throw new StaleGeneration();
    return result.rows;
  };

  const definitionsFirst = async (
    snapshot: PostingsSnapshot,
    built: SearchQuery,
    k: number,
    where: { sql: string; params: string[] },
    accept: FilterVerdict | undefined,
  ): Promise<ScoredId[] | undefined> => {
    const keys = [...new Set(built.identifiers.flatMap((identifier) => identifier.keys))];
    if (keys.length === 0) return undefined;
    const clause = positional(where, 2);
    const definerIds = await rowsAt<{ id: number | null }>(
      snapshot.generation,
      `SELECT c.id FROM chunk_search c WHERE c.definition_keys && $1::text[]${clause.sql} LIMIT $2`,
      [keys, MAX_DEFINER_IDS, ...clause.params],
    );
    const isDefiner = new Set(definerIds.flatMap((row) => (row.id === null ? [] : [row.id])));
    if (isDefiner.size === 0) return undefined;
    const first = Math.max(k, DEFINER_WINDOW);
    let window = topIds(snapshot, built, first, accept);
    let definers = window.filter((row) => isDefiner.has(row.id));
    if (definers.length === 0 && window.length === first) {
      window = topIds(snapshot, built, Math.max(k, WIDE_DEFINER_WINDOW), accept);
      definers = window.filter((row) => isDefiner.has(row.id));
    }
    const found = await rowsAt<{ id: number | null; definitions: string | null }>(snapshot.generation, 'SELECT id, definitions FROM chunks WHERE id = ANY($1::int[])', [
      definers.map((row) => row.id),
    ]);
    const definitions = new Map(found.flatMap((row) => (row.id === null ? [] : [[row.id, JSON.parse(row.definitions!) as Definitions] as const])));
    return putDefinitionsFirst(
      window.slice(0, k).map((row) => ({ ...row, definitions: NO_DEFINITIONS })),
      definers.map((row) => ({ ...row, definitions: definitions.get(row.id) ?? NO_DEFINITIONS })),
      built.identifiers,
      k,
    );
  };

  /**
   * One attempt. With `fromCache`, a search whose terms are all kept reads nothing before its
   * hits (whose statement checks the generation); the next attempt, if any, reads the terms.
   */
  const searchOnce = async (built: SearchQuery, k: number, filter: SearchOptions['filter'], fromCache: boolean): Promise<Hit[]> => {
    const queryTokens = built.terms.flatMap((term) => tokens.tokens(term));
    const snapshot = (fromCache ? cache.kept(queryTokens) : undefined) ?? (await cache.read(pool, queryTokens));
    // Without any acl label in the index the access condition would keep every chunk: left out, as SQLite does.
    const where = filterClause(filter, 'c', { restricted: snapshot.restricted });
    const accept = where.sql === '' ? undefined : await filterBits.verdict(pool, where, snapshot.generation);
    const ranked = (await definitionsFirst(snapshot, built, k, where, accept)) ?? topIds(snapshot, built, k, accept);
    if (ranked.length === 0) {
      // Nothing matched in the kept generation: worth an answer only if it is still the index's.
      if (fromCache) await rowsAt(snapshot.generation, 'SELECT 1', []);
      return [];
    }
    const rows = await rowsAt<ChunkRow & { id: number | null }>(snapshot.generation, `SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c WHERE c.id = ANY($1::int[])`, [
      ranked.map((row) => row.id),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ranked.map(({ id, score }) => hitFromRow(byId.get(id)!, score, built.terms, tokenizer));
  };

  return {
    async search(query: string, { k, filter }: SearchOptions): Promise<Hit[]> {
      const built = buildSearchQuery(query, tokenizer);
      // A malformed principal is refused even when no term is indexed.
      filterClause(filter, 'c');
      if (built === undefined) return [];
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await searchOnce(built, k, filter, attempt === 1);
        } catch (error) {
          if (!(error instanceof StaleGeneration)) throw error;
          if (attempt >= MAX_ATTEMPTS) {
            throw new AtlasError('index-io', `Atlas: the PostgreSQL index changed during each of ${MAX_ATTEMPTS} attempts of one search (ingests committing back to back). Search again once they are done.`);
          }
        }
      }
    },
    /** Document frequencies of `words` (term-frequencies.ts); undefined when the index holds restricted pages, as in SQLite. */
    async frequencies(words: readonly string[]): Promise<DocumentFrequencies | undefined> {
      const snapshot = await cache.read(pool, words.flatMap((word) => tokens.tokens(word)));
      return snapshot.restricted ? undefined : documentFrequencies(snapshot.reader, tokens, words);
    },
  };
}
