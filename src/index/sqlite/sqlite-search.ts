import type { Definitions } from '../analysis/definitions.ts';
import { DEFINER_WINDOW, putDefinitionsFirst, WIDE_DEFINER_WINDOW } from '../analysis/definitions-first.ts';
import { filterClause, type FilterClause } from '../filter.ts';
import { createFilterVerdicts } from '../filter-verdicts.ts';
import { buildSearchQuery, type SearchQuery } from '../engine/query.ts';
import { CHUNK_COLUMNS, hitFromRow, type ChunkRow, type StatementCache } from '../sql-rows.ts';
import { createFts5Tokenizer } from '../analysis/fts5-tokens.ts';
import { createPostingsReader } from '../engine/postings-store.ts';
import { createRowCache } from '../engine/postings-row-cache.ts';
import { createRankScratch, topByBm25, type ScoredId } from '../engine/postings-search.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { Hit, SearchOptions } from '../types.ts';

const NO_DEFINITIONS: Definitions = { headings: [], lines: [] };
const DEFINITIONS_BY_IDS_SQL = 'SELECT c.id, c.definitions FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))';
const CHUNKS_BY_IDS_SQL = `SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))`;
/** At most this many defining chunks are looked for in the window of one query. */
const MAX_DEFINER_IDS = 10_000;

/**
 * What a search needs to know of the index: a version of its data (the same version, the same
 * chunks under the same ids), whether any chunk has an `acl` label, and how many bytes of
 * postings rows to keep between searches of that version (default `ROW_CACHE_BYTES`).
 */
export interface IndexState {
  version: string;
  restricted: boolean;
  rowCacheBytes?: number;
}

/**
 * The search of the SQLite index: the top k by BM25 from the postings store (postings-search.ts:
 * FTS5's scoring, pruned so that common terms cost little), filters checked before the cut; for a
 * query naming identifiers defined somewhere, the chunk that defines each of them in front (see
 * definitions-first.ts); snippets computed when read. `weights` are the BM25 column weights
 * (title, heading, headings between, body, identifier expansions); postings rows and terms are
 * kept between searches of one version of the data (postings-row-cache.ts). `index.state` gives a
 * version of the data (equal versions: the same chunks under the same ids) and whether it holds
 * pages with an `acl` label (default: a new version per search, assume it does); `index.snapshot` runs a search in one read transaction (default: as it is), so that its
 * statements see one version of the index even while another connection ingests.
 *
 * @example
 * const search = createSqliteSearch(statements, [2, 3, 0.5, 1, 1], DEFAULT_TOKENIZER, { state: () => ({ version: '1', restricted: false }) });
 * await search('ORB-1202', { k: 5 });
 */
export function createSqliteSearch(
  statements: StatementCache,
  weights: readonly number[],
  tokenizer: TokenizerOptions,
  index: { state?: () => IndexState; snapshot?: <T>(work: () => T) => T } = {},
) {
  // Without a state, no search reuses another's verdicts (each gets a version of its own).
  let searches = 0;
  const state = index.state ?? ((): IndexState => ({ version: `search-${(searches += 1)}`, restricted: true }));
  const snapshot = index.snapshot ?? (<T>(work: () => T) => work());
  const verdicts = createFilterVerdicts(statements);
  const byIds = <T>(sql: string, ids: number[]) => statements.get(sql).all(JSON.stringify(ids)) as T[];
  // Postings rows and terms kept from one search to the next (of one version of the data).
  const rowCache = createRowCache();
  const reader = rowCache.reading(createPostingsReader((sql) => statements.get(sql)));
  const tokens = createFts5Tokenizer({ porter: tokenizer.porter, spaceless: 'query' });
  const scratch = createRankScratch();

  /**
   * The best `k` ids and scores passing the filter. A query term is nearly always one token for
   * FTS5 too; one it splits into several (combining marks inside a word: Devanagari vowel signs,
   * Arabic harakat) would be a phrase in FTS5 and counts here as that many terms.
   */
  const topIds = (built: SearchQuery, k: number, where: FilterClause, version: string): ScoredId[] => {
    const accept = where.sql === '' ? undefined : verdicts(where, version);
    return topByBm25(reader, { tokens: built.terms.flatMap((term) => tokens.tokens(term)), weights, k, accept, scratch });
  };
  /** The ranked chunks as hits: only these k rows are read in full. */
  const hits = (ranked: ScoredId[], built: SearchQuery): Hit[] => {
    const rows = new Map(byIds<ChunkRow & { id: number }>(CHUNKS_BY_IDS_SQL, ranked.map((row) => row.id)).map((row) => [row.id, row]));
    return ranked.map(({ id, score }) => hitFromRow(rows.get(id)!, score, built.terms, tokenizer));
  };

  /**
   * Most identifiers are defined nowhere (or only outside the filter): a lookup in
   * `definitions_fts` (a few short doclists) says so, and the plain top k is all there is to do. Otherwise the ranking is read
   * as ids and scores down to {@link DEFINER_WINDOW} (or {@link WIDE_DEFINER_WINDOW} when that
   * holds no definer), the definers among them are found and their definitions read; only the
   * k chunks shown are read in full.
   */
  const definitionsFirst = (built: SearchQuery, k: number, where: FilterClause, version: string): ScoredId[] | undefined => {
    if (built.definitions === undefined) return undefined;
    const definerIds = statements.get(definerIdsSql(where.sql)).pluck().all(built.definitions, ...where.params, MAX_DEFINER_IDS) as number[];
    if (definerIds.length === 0) return undefined;
    const isDefiner = new Set(definerIds);
    let window = topIds(built, Math.max(k, DEFINER_WINDOW), where, version);
    let definers = window.filter((row) => isDefiner.has(row.id));
    if (definers.length === 0 && window.length === Math.max(k, DEFINER_WINDOW)) {
      window = topIds(built, Math.max(k, WIDE_DEFINER_WINDOW), where, version);
      definers = window.filter((row) => isDefiner.has(row.id));
    }
    const definitions = new Map(
      byIds<{ id: number; definitions: string }>(DEFINITIONS_BY_IDS_SQL, definers.map((row) => row.id)).map((row) => [
        row.id,
        JSON.parse(row.definitions) as Definitions,
      ]),
    );
    return putDefinitionsFirst(
      window.slice(0, k).map((row) => ({ ...row, definitions: NO_DEFINITIONS })),
      definers.map((row) => ({ ...row, definitions: definitions.get(row.id) ?? NO_DEFINITIONS })),
      built.identifiers,
      k,
    );
  };

  return async function search(query: string, { k, filter }: SearchOptions): Promise<Hit[]> {
    const built = buildSearchQuery(query, tokenizer);
    if (built === undefined) return [];
    return snapshot(() => {
      const { version, restricted, rowCacheBytes } = state();
      rowCache.use(version, rowCacheBytes);
      const where = filterClause(filter, 'c', { restricted });
      return hits(definitionsFirst(built, k, where, version) ?? topIds(built, k, where, version), built);
    });
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
