import type { Pool } from 'pg';
import type { Definitions } from '../analysis/definitions.ts';
import { DEFINER_WINDOW, putDefinitionsFirst, WIDE_DEFINER_WINDOW } from '../analysis/definitions-first.ts';
import { ACL_LABEL, filterClause } from '../filter.ts';
import { positional, topScored, type FilterSql, type PostgresRanking, type QueryLexemes, type ScoredId } from './postgres-ranking.ts';
import { textSearchConfig } from './postgres-schema.ts';
import { foldedWords } from './postgres-text.ts';
import { buildSearchQuery } from '../engine/query.ts';
import { CHUNK_COLUMNS, hitFromRow, type ChunkRow } from '../sql-rows.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { Hit, SearchOptions } from '../types.ts';

const MAX_DEFINER_IDS = 10_000;
const NO_DEFINITIONS: Definitions = { headings: [], lines: [] };


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

  const topIds = (query: QueryLexemes, filter: FilterSql, limit: number): Promise<ScoredId[]> => topScored(pool, ranking, query, filter, limit);

  /**
   * The query's lexemes found in the index, each with its IDF times the number of query terms
   * that stem to it: FTS5 scores each quoted term of the OR query on its own, so `enqueue` and
   * `enqueues` count twice there too.
   */
  const lexemesOf = async (terms: string[]): Promise<(QueryLexemes & { restricted: boolean }) | undefined> => {
    const result = await pool.query<{ lexeme: string; terms: number; df: number; chunks: string | null; tokens: string | null; restricted: boolean }>(
      `SELECT l.lexeme, l.terms, x.df, (SELECT value FROM meta WHERE key = 'chunkCount') AS chunks, (SELECT value FROM meta WHERE key = 'tokenTotal') AS tokens,
         EXISTS (SELECT 1 FROM chunk_labels WHERE name = '${ACL_LABEL}') AS restricted
       FROM (SELECT lexeme, cardinality(positions) AS terms FROM unnest(to_tsvector(${config}, $1))) l JOIN lexemes x USING (lexeme) ORDER BY l.lexeme`,
      [foldedWords(terms.join(' ')).join(' ')],
    );
    if (result.rows.length === 0) return undefined;
    const chunks = Number(result.rows[0]!.chunks ?? 0);
    const tokens = Number(result.rows[0]!.tokens ?? 0);
    const idf = (df: number) => Math.max(Math.log((chunks - df + 0.5) / (df + 0.5)), 1e-6);
    return {
      lexemes: result.rows.map((row) => row.lexeme),
      dfs: result.rows.map((row) => row.df),
      idfs: result.rows.map((row) => idf(row.df) * Math.max(1, row.terms)),
      averageLength: chunks === 0 ? 1 : Math.max(tokens / chunks, 1e-9),
      restricted: result.rows[0]!.restricted,
    };
  };

  return async function search(query: string, { k, filter }: SearchOptions): Promise<Hit[]> {
    const built = buildSearchQuery(query, tokenizer);
    if (built === undefined) return [];
    // A malformed principal is refused even when no term is indexed.
    filterClause(filter, 'c');
    const lexemes = await lexemesOf(built.terms);
    if (lexemes === undefined) return [];
    // Without any acl label in the index the access condition would keep every chunk: left out, as SQLite does.
    const where = filterClause(filter, 'c', { restricted: lexemes.restricted });
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
    return ranked.map(({ id, score }) => hitFromRow(rows.get(id)!, score, built.terms, tokenizer));
  };
}
