import type { FilterClause } from './filter.ts';
import { quoteTerm } from './query.ts';
import type { StatementCache } from './sqlite-rows.ts';

/** A ranked chunk: its rowid and its BM25 score (higher is better). */
export interface ScoredId {
  id: number;
  score: number;
}

/** Options of {@link createTermPruning}. */
export interface TermPruningOptions {
  /**
   * Below this many postings (the query's terms' document frequencies added up) the full query
   * runs: it is cheap there, and pruning's extra statements would cost more than they save.
   * Default {@link MIN_PRUNED_POSTINGS}; tests set 0 to prune every query they can.
   */
  minPostings?: number;
}

/** Default of {@link TermPruningOptions.minPostings}: about a 50k-chunk index's common words. */
export const MIN_PRUNED_POSTINGS = 50_000;
/** BM25's k1 in FTS5 (fts5_aux.c): a term adds at most IDF * (k1 + 1) to a row's score. */
const K1 = 1.2;
/** Slack for float sums: FTS5 adds the phrases in query order, the bounds are added here. */
const EPSILON = 1e-9;
/** The best rows of the rarest terms rescored to find a first k-th score. */
const SEED_ROWS = 50;

/**
 * MaxScore at term granularity over FTS5: the top `limit` of the OR of `terms`, exactly as the
 * full query ranks them (same rows, FTS5's own scores of the full query, ties by rowid), found by
 * scoring fewer rows. Returns `undefined` when pruning cannot pay (few postings, one term, or no
 * term can be set aside); the caller then runs the full query.
 *
 * BM25 is a sum over terms and a term adds at most IDF * (k1 + 1) to any row. A first k-th
 * score θ comes from the best rows of the rarest terms, rescored by the full query (they exist
 * with those scores). The commonest terms whose bounds add up to less than θ are non-essential:
 * a row holding none of the others scores below θ. The candidates are the rows (filter applied)
 * whose score on the essential terms alone reaches θ minus those bounds; they are rescored by the
 * full query. Rescoring writes `+rowid IN (...)`: as a rowid constraint FTS5 would be run once
 * per rowid, each time scanning every term's postings again for its IDF.
 *
 * @example
 * const pruning = createTermPruning(statements, 'bm25(chunks_fts, 2, 3, 0.5, 1, 1)');
 * pruning(['spouse', 'director', 'film'], filterClause({ version: '3.x' }, 'c', { restricted: false }), 10);
 * // undefined (run the full query), or the full query's top 10
 */
export function createTermPruning(statements: StatementCache, bm25: string, options: TermPruningOptions = {}) {
  const minPostings = options.minPostings ?? MIN_PRUNED_POSTINGS;
  const count = (match: string) => statements.get('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().get(match) as number;
  // The largest rowid is at least the row count (rowids are distinct positive integers) and is one
  // B-tree step away; a larger N only loosens the bounds, so they stay bounds.
  const rowCountBound = () => (statements.get('SELECT max(id) FROM chunks').pluck().get() as number | null) ?? 0;
  const top = (match: string, where: FilterClause, limit: number) =>
    statements.get(`${rankedSql(bm25, where.sql)} ORDER BY score DESC, id LIMIT ?`).all(match, ...where.params, limit) as ScoredId[];
  const atLeast = (match: string, where: FilterClause, threshold: number) =>
    statements.get(`SELECT id FROM (${rankedSql(bm25, where.sql)}) WHERE score >= ?`).pluck().all(match, ...where.params, threshold) as number[];
  // The candidates passed the filter already.
  const rescore = (match: string, ids: number[], limit: number) =>
    statements
      .get(
        `SELECT rowid AS id, -${bm25} AS score FROM chunks_fts WHERE chunks_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))
         ORDER BY score DESC, rowid LIMIT ?`,
      )
      .all(match, JSON.stringify(ids), limit) as ScoredId[];

  return function prunedTopIds(terms: readonly string[], where: FilterClause, limit: number): ScoredId[] | undefined {
    if (terms.length < 2) return undefined;
    const byRarity = terms.map((term) => ({ term, df: count(quoteTerm(term)) })).filter((entry) => entry.df > 0);
    const postings = byRarity.reduce((sum, entry) => sum + entry.df, 0);
    if (byRarity.length < 2 || postings < minPostings) return undefined;
    byRarity.sort((a, b) => a.df - b.df);
    const rows = rowCountBound();
    const bound = (df: number) => Math.max(Math.log((rows - df + 0.5) / (df + 0.5)), 1e-6) * (K1 + 1);
    const match = terms.map(quoteTerm).join(' OR ');
    const matchOf = (entries: typeof byRarity) => entries.map((entry) => quoteTerm(entry.term)).join(' OR ');
    let seedCount = 0;
    for (let seedDf = 0; seedCount < byRarity.length - 1 && seedDf < SEED_ROWS; seedCount += 1) seedDf += byRarity[seedCount]!.df;
    const seeded = rescore(match, top(matchOf(byRarity.slice(0, seedCount)), where, SEED_ROWS).map((row) => row.id), limit);
    if (seeded.length < limit) return undefined;
    const theta = seeded[limit - 1]!.score;
    let essential = byRarity.length;
    let setAside = 0;
    while (essential > 1 && setAside + bound(byRarity[essential - 1]!.df) < theta - EPSILON) {
      essential -= 1;
      setAside += bound(byRarity[essential]!.df);
    }
    if (essential === byRarity.length) return undefined;
    const candidates = atLeast(matchOf(byRarity.slice(0, essential)), where, theta - setAside - EPSILON);
    return rescore(match, candidates, limit);
  };
}

/** Rowids and scores of the rows matching `?` that pass the filter (the shape of sqlite-search.ts's top ids). */
function rankedSql(bm25: string, filterSql: string): string {
  return filterSql === ''
    ? `SELECT rowid AS id, -${bm25} AS score FROM chunks_fts WHERE chunks_fts MATCH ?`
    : `SELECT c.id AS id, -${bm25} AS score
       FROM chunks_fts JOIN chunks c INDEXED BY chunks_for_filters ON c.id = chunks_fts.rowid
       WHERE chunks_fts MATCH ?${filterSql}`;
}
