import type { Pool } from 'pg';

/**
 * How the PostgreSQL index scores a match.
 * - `bm25` (default): Okapi BM25 exactly as SQLite FTS5 computes it (k1 1.2, b 0.75, the IDF of
 *   each lexeme from the `lexemes` table, weighted term frequency: heading 3, title 2, body and
 *   identifier expansions 1, the headings between 0.5), read from the `tsvector` of each match.
 * - `ts_rank`: PostgreSQL's `ts_rank` with the same weights (scaled to 1) and length
 *   normalisation 1; no IDF, so common words count like rare ones (docs/postgres.md measures it).
 */
export type PostgresRanking = 'bm25' | 'ts_rank';

/** The lexemes of a query that occur in the index, their document frequency and IDF (times the query terms stemming to each), and the average chunk length in tokens. */
export interface QueryLexemes {
  lexemes: string[];
  dfs: number[];
  idfs: number[];
  averageLength: number;
}

/** A chunk id and its score. */
export type ScoredId = { id: number; score: number };

/** Filter SQL with `?` placeholders, as filter.ts writes it. */
export type FilterSql = { sql: string; params: string[] };

/**
 * `clause` with its `?` placeholders numbered `$after+1`, `$after+2`, ... (filter.ts writes `?`
 * for SQLite; its SQL holds no other `?`: every value is a parameter).
 *
 * @example
 * positional({ sql: ' AND c.applies_to IN (?, \'all\')', params: ['3.x'] }, 2).sql // " AND c.applies_to IN ($3, 'all')"
 */
export function positional(clause: FilterSql, after: number): FilterSql {
  let next = after;
  return { sql: clause.sql.replace(/\?/g, () => `$${(next += 1)}`), params: clause.params };
}

/** FTS5's default BM25 parameters. */
const K1 = 1.2;
const B = 0.75;
/** The weight of each tsvector label (A heading, B title, C body and identifier expansions, D the headings between); multiples of 0.5. */
const LABEL_WEIGHTS = { A: 3, B: 2, C: 1, D: 0.5 };
const TOP_WEIGHT = Math.max(...Object.values(LABEL_WEIGHTS));
/** ts_rank's and ts_rank_cd's weights {D, C, B, A}, scaled to at most 1 (they refuse more). */
const RANK_WEIGHTS = `'{${[LABEL_WEIGHTS.D, LABEL_WEIGHTS.C, LABEL_WEIGHTS.B, LABEL_WEIGHTS.A].map((weight) => weight / TOP_WEIGHT).join(',')}}'::float4[]`;
/** The first pass of {@link topScored} reads the chunks of the rarest lexemes, up to about this many. */
const SEED_ROWS = 2_000;

/**
 * The `limit` best chunks passing `filter` for a query, best first (ties by id, i.e. ingest
 * order). BM25 is exact and pruned with MaxScore: a lexeme adds at most idf * (k1 + 1) to a
 * score, so once a first pass over the chunks of the rarest lexemes has found `limit` chunks
 * scoring at least t, a chunk holding only common lexemes whose bounds sum below t cannot make
 * the cut; only the chunks holding one of the other lexemes (found by GIN) are scored. The
 * result is the same as scoring every match.
 *
 * @example
 * await topScored(pool, 'bm25', lexemes, { sql: '', params: [] }, 10); // [{ id: 812, score: 14.2 }, ...]
 */
export async function topScored(pool: Pool, ranking: PostgresRanking, query: QueryLexemes, filter: FilterSql, limit: number): Promise<ScoredId[]> {
  const run = async (match: string[]): Promise<ScoredId[]> => {
    const { sql, params } = ranking === 'ts_rank' ? tsRankSql(match, filter, limit) : bm25Sql(query, match, filter, limit);
    const result = await pool.query<{ id: number; score: number }>(sql, params);
    return result.rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  };
  if (ranking === 'ts_rank') return run(query.lexemes);
  const byRarity = query.lexemes.map((lexeme, n) => ({ lexeme, df: query.dfs[n]!, bound: query.idfs[n]! * (K1 + 1) })).sort((a, b) => a.df - b.df);
  const total = byRarity.reduce((sum, term) => sum + term.df, 0);
  if (total <= SEED_ROWS || byRarity.length === 1) return run(query.lexemes);
  const seed: string[] = [];
  let seedRows = 0;
  for (const term of byRarity) {
    if (seed.length > 0 && seedRows + term.df > SEED_ROWS) break;
    seed.push(term.lexeme);
    seedRows += term.df;
  }
  const first = await run(seed);
  if (first.length < limit) return run(query.lexemes);
  const threshold = first[limit - 1]!.score;
  let dropped = 0;
  let bounds = 0;
  for (const term of [...byRarity].reverse()) {
    if (bounds + term.bound >= threshold) break;
    bounds += term.bound;
    dropped += 1;
  }
  if (dropped === 0) return run(query.lexemes);
  const essential = byRarity.slice(0, byRarity.length - dropped).map((term) => term.lexeme);
  return essential.length === seed.length ? first : run(essential);
}

/** A tsquery matching any of `lexemes` (already normalised: a cast, not `to_tsquery`). */
function anyLexeme(lexemes: string[]): string {
  return lexemes.map((lexeme) => `'${lexeme.replace(/['\\]/g, (char) => `\\${char}`)}'`).join(' | ');
}

function tsRankSql(match: string[], filter: FilterSql, limit: number): { sql: string; params: unknown[] } {
  const where = positional(filter, 2);
  return {
    sql: `SELECT c.id, ts_rank(${RANK_WEIGHTS}, c.tsv, $1::tsquery, 1)::float8 AS score FROM chunk_search c
          WHERE c.tsv @@ $1::tsquery${where.sql} ORDER BY score DESC, c.id LIMIT $2`,
    params: [anyLexeme(match), limit, ...where.params],
  };
}

/**
 * BM25 over the chunks holding any of `match`, scored on every lexeme of the query. ts_rank_cd of
 * a one-lexeme query without normalisation is the sum of the label weights of that lexeme's
 * positions (each occurrence is a cover of length 1): the weighted term frequency FTS5 computes.
 * Rounding to halves undoes ts_rank_cd's float4 error (every label weight is a multiple of 0.5);
 * OFFSET 0 keeps PostgreSQL from computing each frequency twice.
 */
function bm25Sql(query: QueryLexemes, match: string[], filter: FilterSql, limit: number): { sql: string; params: unknown[] } {
  const fixed = 3;
  const termParams = query.lexemes.flatMap((lexeme, n) => [anyLexeme([lexeme]), query.idfs[n]!]);
  const where = positional(filter, fixed + termParams.length);
  const frequencies = query.lexemes.map((_, n) => `round(ts_rank_cd(${RANK_WEIGHTS}, c.tsv, $${fixed + 2 * n + 1}::tsquery, 0)::numeric * ${TOP_WEIGHT * 2}) / 2 AS f${n}`);
  const norm = `${K1} * (${1 - B} + ${B} * c.token_count / $2::float8)`;
  const terms = query.lexemes.map((_, n) => `$${fixed + 2 * n + 2}::float8 * f.f${n} * ${K1 + 1} / (f.f${n} + ${norm})`);
  return {
    sql: `SELECT c.id, (${terms.join(' + ')})::float8 AS score
          FROM chunk_search c CROSS JOIN LATERAL (SELECT ${frequencies.join(', ')} OFFSET 0) f
          WHERE c.tsv @@ $1::tsquery${where.sql}
          ORDER BY score DESC, c.id LIMIT $3`,
    params: [anyLexeme(match), query.averageLength, limit, ...termParams, ...where.params],
  };
}
