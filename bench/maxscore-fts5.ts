/**
 * MaxScore at term granularity over FTS5, as a bench engine (bench/scale.ts `--engines maxscore`),
 * measured beside Atlas's full evaluation to decide whether it belongs in src/index/. It returns
 * exactly the top k of the full OR query (same rows, same FTS5 scores, ties by rowid), because
 * every score it returns is FTS5's own `bm25()` of the full query:
 *
 * 1. Each term's document frequency (`count(*)` of its MATCH: the `nHit` FTS5's bm25 uses) gives
 *    its bound IDF * (k1 + 1), k1 = 1.2 (fts5_aux.c: a term adds at most that, whatever its
 *    weighted frequency and the row's length).
 * 2. A lower bound θ of the k-th score: the best rows of the rarest terms alone, rescored by the
 *    full query (those rows exist with those scores).
 * 3. The commonest terms whose bounds add up to less than θ are the non-essential ones: a row
 *    holding none of the other (essential) terms scores less than θ and cannot enter the top k.
 * 4. The candidates: every row (that passes the filter) whose score on the essential terms alone
 *    is at least θ minus those bounds; rescored by the full query restricted to them, best k kept.
 *
 * `+rowid IN (...)` keeps the rowid list away from FTS5's planner: as a rowid constraint FTS5
 * would be asked once per rowid, recomputing every phrase's `nHit` each time.
 */
import type Database from 'better-sqlite3';
import { quoteTerm } from '../src/index/query.ts';

/** One scored row: its rowid and its (positive) BM25 score. */
export interface ScoredRow {
  id: number;
  score: number;
}

/** What one search did, for the bench's report. */
export interface MaxScoreTrace {
  essential: number;
  terms: number;
  candidates: number;
  /** `full`: no pruning possible (every term essential), the plain query ran. */
  path: 'pruned' | 'full';
}

const K1 = 1.2;
/** Slack for the float sums (FTS5 adds the phrases in query order; the bounds are summed here). */
const EPSILON = 1e-9;
/** Rows of the rarest terms rescored to find the first θ. */
const SEED_ROWS = 50;

/**
 * A MaxScore searcher over the `chunks_fts` table of an Atlas database; `bm25` is the weighted
 * call (e.g. `bm25(chunks_fts, 2, 3, 0.5, 1, 1)`).
 *
 * @example
 * const search = createMaxScoreSearch(db, 'bm25(chunks_fts, 2, 3, 0.5, 1, 1)');
 * search(['spouse', 'director', 'film'], 10, '3.x').rows; // the same rows as the full OR query
 */
export function createMaxScoreSearch(db: Database.Database, bm25: string) {
  const rowCount = db.prepare('SELECT count(*) FROM chunks').pluck();
  const documentFrequency = db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?').pluck();
  const versionJoin = (version: boolean) =>
    version ? "JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? AND c.applies_to IN (?, 'all')" : 'WHERE chunks_fts MATCH ?';
  const statements = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let found = statements.get(sql);
    if (found === undefined) statements.set(sql, (found = db.prepare(sql)));
    return found;
  };
  const top = (version: string | null, match: string, limit: number): ScoredRow[] =>
    statement(`SELECT chunks_fts.rowid AS id, -${bm25} AS score FROM chunks_fts ${versionJoin(version !== null)} ORDER BY score DESC, chunks_fts.rowid LIMIT ?`).all(
      ...params(match, version),
      limit,
    ) as ScoredRow[];
  const atLeast = (version: string | null, match: string, threshold: number): number[] =>
    statement(`SELECT chunks_fts.rowid FROM chunks_fts ${versionJoin(version !== null)} AND -${bm25} >= ?`)
      .pluck()
      .all(...params(match, version), threshold) as number[];
  // The candidates all passed the filter already: the rescoring needs no filter.
  const rescore = (match: string, ids: number[], limit: number): ScoredRow[] =>
    statement(
      `SELECT rowid AS id, -${bm25} AS score FROM chunks_fts WHERE chunks_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))
       ORDER BY score DESC, rowid LIMIT ?`,
    ).all(match, JSON.stringify(ids), limit) as ScoredRow[];

  return function search(terms: readonly string[], k: number, version: string | null): { rows: ScoredRow[]; trace: MaxScoreTrace } {
    const match = terms.map(quoteTerm).join(' OR ');
    const rows = rowCount.get() as number;
    const bound = (df: number) => Math.max(Math.log((rows - df + 0.5) / (df + 0.5)), 1e-6) * (K1 + 1);
    const byRarity = terms
      .map((term) => ({ term, df: documentFrequency.get(quoteTerm(term)) as number }))
      .filter((entry) => entry.df > 0)
      .sort((a, b) => a.df - b.df);
    const full = (): { rows: ScoredRow[]; trace: MaxScoreTrace } => ({
      rows: top(version, match, k),
      trace: { essential: byRarity.length, terms: terms.length, candidates: 0, path: 'full' },
    });
    if (byRarity.length < 2) return full();
    // θ from the rarest terms covering at least SEED_ROWS rows.
    let seedCount = 0;
    let seedDf = 0;
    while (seedCount < byRarity.length - 1 && seedDf < SEED_ROWS) seedDf += byRarity[seedCount++]!.df;
    const seed = top(version, byRarity.slice(0, seedCount).map((entry) => quoteTerm(entry.term)).join(' OR '), SEED_ROWS);
    const seeded = rescore(match, seed.map((row) => row.id), k);
    if (seeded.length < k) return full();
    const theta = seeded[k - 1]!.score;
    // The commonest terms whose bounds stay below θ are non-essential.
    let essential = byRarity.length;
    let slack = 0;
    while (essential > 1 && slack + bound(byRarity[essential - 1]!.df) < theta - EPSILON) slack += bound(byRarity[--essential]!.df);
    if (essential === byRarity.length) return full();
    const essentialMatch = byRarity.slice(0, essential).map((entry) => quoteTerm(entry.term)).join(' OR ');
    const candidates = atLeast(version, essentialMatch, theta - slack - EPSILON);
    return {
      rows: rescore(match, candidates, k),
      trace: { essential, terms: terms.length, candidates: candidates.length, path: 'pruned' },
    };
  };
}

function params(match: string, version: string | null): string[] {
  return version === null ? [match] : [match, version];
}
