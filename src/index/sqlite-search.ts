import type { Definitions } from './definitions.ts';
import { DEFINER_WINDOW, putDefinitionsFirst, WIDE_DEFINER_WINDOW } from './definitions-first.ts';
import { filterClause, type FilterClause } from './filter.ts';
import { buildSearchQuery, type SearchQuery } from './query.ts';
import { makeSnippet } from './snippet.ts';
import { CHUNK_COLUMNS, chunkFromRow, type ChunkRow, type StatementCache } from './sqlite-rows.ts';
import { createTermPruning } from './term-pruning.ts';
import type { TokenizerOptions } from './tokenize.ts';
import type { Hit, SearchOptions } from './types.ts';

const NO_DEFINITIONS: Definitions = { headings: [], lines: [] };
const DEFINITIONS_BY_IDS_SQL = 'SELECT c.id, c.definitions FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))';
const CHUNKS_BY_IDS_SQL = `SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))`;
/** At most this many defining chunks are looked for in the window of one query. */
const MAX_DEFINER_IDS = 10_000;

type ScoredId = { id: number; score: number };
type ScoredRow = ChunkRow & ScoredId;

/**
 * The search of the SQLite index: the top k by BM25 (`bm25` is the weighted `bm25()` call),
 * filters in SQL before the cut, common terms pruned when they cannot change the top k
 * (term-pruning.ts); for a query naming identifiers defined somewhere, the chunk that
 * defines each of them in front (see definitions-first.ts); snippets computed when read.
 *
 * @example
 * `restricted` says whether the index holds pages with an `acl` label (default: assume it does).
 *
 * @example
 * const search = createSqliteSearch(statements, 'bm25(chunks_fts, 2, 3, 0.5, 1, 1)', DEFAULT_TOKENIZER, () => false);
 * await search('ORB-1202', { k: 5 });
 */
export function createSqliteSearch(
  statements: StatementCache,
  bm25: string,
  tokenizer: TokenizerOptions,
  restricted: () => boolean = () => true,
) {
  const byIds = <T>(sql: string, ids: number[]) => statements.get(sql).all(JSON.stringify(ids)) as T[];
  const prunedTopIds = createTermPruning(statements, bm25);

  /** The top k rows: pruned by term (term-pruning.ts) when that pays, else the full query; the same rows either way. */
  const topRows = (built: SearchQuery, k: number, where: FilterClause): ScoredRow[] => {
    const pruned = prunedTopIds(built.terms, where, k);
    if (pruned === undefined) return statements.get(topRowsSql(bm25, where.sql)).all(built.match, ...where.params, k) as ScoredRow[];
    const rows = new Map(byIds<ChunkRow & { id: number }>(CHUNKS_BY_IDS_SQL, pruned.map((row) => row.id)).map((row) => [row.id, row]));
    return pruned.map(({ id, score }) => ({ ...rows.get(id)!, id, score }));
  };

  /**
   * Most identifiers are defined nowhere (or only outside the filter): a lookup in
   * `definitions_fts` (a few short doclists) says so, and the plain top k is all there is to do. Otherwise the ranking is read
   * as ids and scores down to {@link DEFINER_WINDOW} (or {@link WIDE_DEFINER_WINDOW} when that
   * holds no definer), the definers among them are found and their definitions read; only the
   * k chunks shown are read in full.
   */
  const definitionsFirst = (built: SearchQuery, k: number, where: FilterClause): ScoredRow[] | undefined => {
    if (built.definitions === undefined) return undefined;
    const definerIds = statements.get(definerIdsSql(where.sql)).pluck().all(built.definitions, ...where.params, MAX_DEFINER_IDS) as number[];
    if (definerIds.length === 0) return undefined;
    const isDefiner = new Set(definerIds);
    const readWindow = (size: number): ScoredId[] =>
      // Rows as [id, score] arrays (the window is long); no other call uses this statement.
      (statements.get(topIdsSql(bm25, where.sql)).raw(true).all(built.match, ...where.params, size) as Array<[number, number]>).map(
        ([id, score]) => ({ id, score }),
      );
    let window = readWindow(Math.max(k, DEFINER_WINDOW));
    let definers = window.filter((row) => isDefiner.has(row.id));
    if (definers.length === 0 && window.length === Math.max(k, DEFINER_WINDOW)) {
      window = readWindow(Math.max(k, WIDE_DEFINER_WINDOW));
      definers = window.filter((row) => isDefiner.has(row.id));
    }
    const definitions = new Map(
      byIds<{ id: number; definitions: string }>(DEFINITIONS_BY_IDS_SQL, definers.map((row) => row.id)).map((row) => [
        row.id,
        JSON.parse(row.definitions) as Definitions,
      ]),
    );
    const ranked = putDefinitionsFirst(
      window.slice(0, k).map((row) => ({ ...row, definitions: NO_DEFINITIONS })),
      definers.map((row) => ({ ...row, definitions: definitions.get(row.id) ?? NO_DEFINITIONS })),
      built.identifiers,
      k,
    );
    const rows = new Map(byIds<ChunkRow & { id: number }>(CHUNKS_BY_IDS_SQL, ranked.map((row) => row.id)).map((row) => [row.id, row]));
    return ranked.map(({ id, score }) => ({ ...rows.get(id)!, id, score }));
  };

  return async function search(query: string, { k, filter }: SearchOptions): Promise<Hit[]> {
    const built = buildSearchQuery(query, tokenizer);
    if (built === undefined) return [];
    const where = filterClause(filter, 'c', { restricted: restricted() });
    const rows = definitionsFirst(built, k, where) ?? topRows(built, k, where);
    return rows.map((row) =>
      withLazySnippet({ ...chunkFromRow(row), score: row.score }, () => makeSnippet(row.text, built.terms, tokenizer)),
    );
  };
}

/**
 * The chunks (that pass the filter) defining any of the keys of a `definitions` expression, at
 * most {@link MAX_DEFINER_IDS}. Usually none or a few: it is a lookup of rare tokens.
 */
function definerIdsSql(filterSql: string): string {
  return filterSql === ''
    ? 'SELECT rowid FROM definitions_fts WHERE definitions_fts MATCH ? LIMIT ?'
    : `SELECT c.id FROM definitions_fts JOIN chunks c INDEXED BY chunks_for_filters ON c.id = definitions_fts.rowid
       WHERE definitions_fts MATCH ?${filterSql} LIMIT ?`;
}

/**
 * Top-k ids and scores by BM25. Without a filter the ranking never leaves the FTS table; with
 * one it reads the narrow chunks_for_filters index. Ties keep ingest order.
 */
function topIdsSql(bm25: string, filterSql: string): string {
  return filterSql === ''
    ? `SELECT rowid AS id, -${bm25} AS score FROM chunks_fts
       WHERE chunks_fts MATCH ? ORDER BY score DESC, rowid LIMIT ?`
    : `SELECT c.id, -${bm25} AS score
       FROM chunks_fts JOIN chunks c INDEXED BY chunks_for_filters ON c.id = chunks_fts.rowid
       WHERE chunks_fts MATCH ?${filterSql} ORDER BY score DESC, c.id LIMIT ?`;
}

/** {@link topIdsSql}, then the chunk rows of those k, best first. */
function topRowsSql(bm25: string, filterSql: string): string {
  return `WITH top AS (${topIdsSql(bm25, filterSql)})
    SELECT ${CHUNK_COLUMNS}, top.id, top.score FROM top JOIN chunks c ON c.id = top.id ORDER BY top.score DESC, top.id`;
}

/**
 * Adds `snippet` as an enumerable property computed on first read: callers that skip hits
 * (a search session dropping passages it already showed) never pay for their snippets.
 */
function withLazySnippet(hit: Omit<Hit, 'snippet'>, make: () => string): Hit {
  let snippet: string | undefined;
  return Object.defineProperty(hit, 'snippet', {
    enumerable: true,
    get: () => (snippet ??= make()),
  }) as Hit;
}
