import type { Pool } from 'pg';
import type { Definitions } from './definitions.ts';
import { DEFINER_WINDOW, putDefinitionsFirst, WIDE_DEFINER_WINDOW } from './definitions-first.ts';
import { filterClause } from './filter.ts';
import { textSearchConfig } from './postgres-schema.ts';
import { foldedWords } from './postgres-text.ts';
import { buildSearchQuery } from './query.ts';
import { makeSnippet } from './snippet.ts';
import { CHUNK_COLUMNS, chunkFromRow, type ChunkRow } from './sqlite-rows.ts';
import type { TokenizerOptions } from './tokenize.ts';
import type { Hit, SearchOptions } from './types.ts';

/**
 * How the PostgreSQL index scores a match.
 * - `bm25` (default): Okapi BM25 exactly as SQLite FTS5 computes it (k1 1.2, b 0.75, the IDF of
 *   each lexeme from the `lexemes` table, weighted term frequency: heading 3, title 2, body and
 *   identifier expansions 1, the headings between 0.5), read from the `tsvector` of each match.
 * - `ts_rank`: PostgreSQL's `ts_rank` with the same weights (scaled to 1) and length
 *   normalisation 1; no IDF, so common words count like rare ones (docs/postgres.md measures it).
 */
export type PostgresRanking = 'bm25' | 'ts_rank';

/** FTS5's default BM25 parameters. */
const K1 = 1.2;
const B = 0.75;
/** The weight of each tsvector label (A heading, B title, C body and identifier expansions, D the headings between). */
const LABEL_WEIGHTS = { A: 3, B: 2, C: 1, D: 0.5 };
const MAX_DEFINER_IDS = 10_000;
const NO_DEFINITIONS: Definitions = { headings: [], lines: [] };

type ScoredId = { id: number; score: number };

/**
 * The search of the PostgreSQL index: the query's words (split and folded like the documents',
 * see postgres-text.ts) become lexemes of the index's configuration; the chunks matching any of
 * them (GIN) that pass the filter (version, labels, access: filter.ts's SQL) are scored and cut
 * to k in SQL; the chunk defining an identifier the query names goes first, as in SQLite.
 *
 * @example
 * const search = createPostgresSearch(pool, DEFAULT_TOKENIZER, 'bm25');
 * await search('ORB-1202', { k: 5, filter: { version: '3.x' } });
 */
export function createPostgresSearch(pool: Pool, tokenizer: TokenizerOptions, ranking: PostgresRanking) {
  const config = `'${textSearchConfig(tokenizer)}'::regconfig`;

  const topIds = async (query: QueryLexemes, filter: FilterSql, limit: number): Promise<ScoredId[]> => {
    const { sql, params } = rankingSql(ranking, query, filter, limit);
    const result = await pool.query<{ id: number; score: number }>(sql, params);
    return result.rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  };

  const lexemesOf = async (terms: string[]): Promise<QueryLexemes | undefined> => {
    const result = await pool.query<{ lexeme: string; df: number; chunks: string | null; tokens: string | null }>(
      `SELECT l.lexeme, x.df, (SELECT value FROM meta WHERE key = 'chunkCount') AS chunks, (SELECT value FROM meta WHERE key = 'tokenTotal') AS tokens
       FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector(${config}, $1))) l JOIN lexemes x USING (lexeme) ORDER BY l.lexeme`,
      [foldedWords(terms.join(' ')).join(' ')],
    );
    if (result.rows.length === 0) return undefined;
    const chunks = Number(result.rows[0]!.chunks ?? 0);
    const tokens = Number(result.rows[0]!.tokens ?? 0);
    const idf = (df: number) => Math.max(Math.log((chunks - df + 0.5) / (df + 0.5)), 1e-6);
    return {
      lexemes: result.rows.map((row) => row.lexeme),
      idfs: result.rows.map((row) => idf(row.df)),
      averageLength: chunks === 0 ? 1 : Math.max(tokens / chunks, 1e-9),
    };
  };

  return async function search(query: string, { k, filter }: SearchOptions): Promise<Hit[]> {
    const built = buildSearchQuery(query, tokenizer);
    if (built === undefined) return [];
    const where = filterClause(filter, 'c');
    const lexemes = await lexemesOf(built.terms);
    if (lexemes === undefined) return [];
    const keys = [...new Set(built.identifiers.flatMap((identifier) => identifier.keys))];
    const filterSql: FilterSql = where;
    let ranked: ScoredId[] | undefined;
    if (keys.length > 0) {
      const definerParams = positional(where, 2);
      const definers = await pool.query<{ id: number }>(
        `SELECT c.id FROM chunk_search c WHERE c.definition_keys && $1::text[]${definerParams.sql} LIMIT $2`,
        [keys, MAX_DEFINER_IDS, ...definerParams.params],
      );
      const isDefiner = new Set(definers.rows.map((row) => row.id));
      if (isDefiner.size > 0) {
        const first = Math.max(k, DEFINER_WINDOW);
        let window = await topIds(lexemes, filterSql, first);
        let found = window.filter((row) => isDefiner.has(row.id));
        if (found.length === 0 && window.length === first) {
          window = await topIds(lexemes, filterSql, Math.max(k, WIDE_DEFINER_WINDOW));
          found = window.filter((row) => isDefiner.has(row.id));
        }
        const definitions = new Map(
          (await pool.query<{ id: number; definitions: string }>('SELECT id, definitions FROM chunks WHERE id = ANY($1)', [found.map((row) => row.id)])).rows.map(
            (row) => [row.id, JSON.parse(row.definitions) as Definitions],
          ),
        );
        ranked = putDefinitionsFirst(
          window.slice(0, k).map((row) => ({ ...row, definitions: NO_DEFINITIONS })),
          found.map((row) => ({ ...row, definitions: definitions.get(row.id) ?? NO_DEFINITIONS })),
          built.identifiers,
          k,
        );
      }
    }
    ranked ??= await topIds(lexemes, filterSql, k);
    if (ranked.length === 0) return [];
    const rows = new Map(
      (await pool.query<ChunkRow & { id: number }>(`SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c WHERE c.id = ANY($1)`, [ranked.map((row) => row.id)])).rows.map((row) => [row.id, row]),
    );
    return ranked.map(({ id, score }) => {
      const row = rows.get(id)!;
      return withLazySnippet({ ...chunkFromRow(row), score }, () => makeSnippet(row.text, built.terms, tokenizer));
    });
  };
}

/** The lexemes of a query that occur in the index, their IDF, and the average chunk length in tokens. */
interface QueryLexemes {
  lexemes: string[];
  idfs: number[];
  averageLength: number;
}

/** Filter SQL with `?` placeholders, as filter.ts writes it. */
type FilterSql = { sql: string; params: string[] };

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

/** A tsquery matching any of `lexemes` (already normalised: a cast, not `to_tsquery`). */
function anyLexeme(lexemes: string[]): string {
  return lexemes.map((lexeme) => `'${lexeme.replace(/['\\]/g, (char) => `\\${char}`)}'`).join(' | ');
}

function rankingSql(ranking: PostgresRanking, query: QueryLexemes, filter: FilterSql, limit: number): { sql: string; params: unknown[] } {
  if (ranking === 'ts_rank') {
    const where = positional(filter, 2);
    const top = Math.max(...Object.values(LABEL_WEIGHTS));
    const weights = `'{${[LABEL_WEIGHTS.D, LABEL_WEIGHTS.C, LABEL_WEIGHTS.B, LABEL_WEIGHTS.A].map((weight) => weight / top).join(',')}}'::float4[]`;
    return {
      sql: `SELECT c.id, ts_rank(${weights}, c.tsv, $1::tsquery, 1)::float8 AS score FROM chunk_search c
            WHERE c.tsv @@ $1::tsquery${where.sql} ORDER BY score DESC, c.id LIMIT $2`,
      params: [anyLexeme(query.lexemes), limit, ...where.params],
    };
  }
  // BM25 from the tsvector: ts_rank_cd of a one-lexeme query without normalisation is the sum of
  // the label weights of that lexeme's positions (each occurrence is a cover of length 1), i.e.
  // the weighted term frequency FTS5 computes. ts_rank_cd takes weights <= 1, hence / top and
  // back; every label weight is a multiple of 0.5, so rounding to halves undoes float4 error.
  const top = Math.max(...Object.values(LABEL_WEIGHTS));
  const weights = `'{${[LABEL_WEIGHTS.D, LABEL_WEIGHTS.C, LABEL_WEIGHTS.B, LABEL_WEIGHTS.A].map((weight) => weight / top).join(',')}}'::float4[]`;
  const fixed = 3;
  const termParams = query.lexemes.flatMap((lexeme, n) => [anyLexeme([lexeme]), query.idfs[n]!]);
  const where = positional(filter, fixed + termParams.length);
  const frequencies = query.lexemes.map((_, n) => `round(ts_rank_cd(${weights}, c.tsv, $${fixed + 2 * n + 1}::tsquery, 0)::numeric * ${top * 2}) / 2 AS f${n}`);
  const norm = `${K1} * (${1 - B} + ${B} * c.token_count / $2::float8)`;
  const terms = query.lexemes.map((_, n) => `$${fixed + 2 * n + 2}::float8 * f.f${n} * ${K1 + 1} / (f.f${n} + ${norm})`);
  return {
    sql: `SELECT c.id, (${terms.join(' + ')})::float8 AS score
          FROM chunk_search c CROSS JOIN LATERAL (SELECT ${frequencies.join(', ')} OFFSET 0) f
          WHERE c.tsv @@ $1::tsquery${where.sql}
          ORDER BY score DESC, c.id LIMIT $3`,
    params: [anyLexeme(query.lexemes), query.averageLength, limit, ...termParams, ...where.params],
  };
}

/** Adds `snippet` as an enumerable property computed on first read (as the SQLite search does). */
function withLazySnippet(hit: Omit<Hit, 'snippet'>, make: () => string): Hit {
  let snippet: string | undefined;
  return Object.defineProperty(hit, 'snippet', { enumerable: true, get: () => (snippet ??= make()) }) as Hit;
}
