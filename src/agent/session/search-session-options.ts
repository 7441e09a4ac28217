import { AtlasError } from '../../errors.ts';
import { withPrincipal } from '../../index/filter.ts';
import type { IndexBackend, Principal, SearchFilter } from '../../index/types.ts';
import { DEFAULT_PAGE_DIVERSITY, type PageDiversity } from './page-diversity.ts';
import { DEFAULT_WEAK_COVERAGE } from './query-coverage.ts';
import { RESULT_TEXT_BUDGET } from './result-page.ts';
import type { SearchMemory } from './search-memory.ts';
import { DEFAULT_READ_TOKENS } from './section-page.ts';

/** What a `SearchSession` searches, for whom, and within which budgets (search-session.ts). */
export interface SearchSessionOptions {
  index: IndexBackend;
  /** Enforced on every tool call; the model cannot widen it. */
  filter?: SearchFilter;
  /**
   * Who is asking: restricted pages (`labels.acl`) outside the principal's groups are "not found"
   * by every tool. Unset means `filter.principal`, or anonymous (public pages only). When both
   * are set, only groups in both count.
   */
  principal?: Principal;
  /** Searches allowed, duplicates included (default 6). */
  maxSearches?: number;
  /**
   * Searches this session already used elsewhere (an MCP session restored from the state tables
   * by another replica): they count toward `maxSearches` (default 0).
   */
  searchesBefore?: number;
  /** Passages per search (default 5). Stays in code: the model cannot change it. */
  k?: number;
  /** Best score under which a search is flagged "weak matches" (see docs/calibration.md). */
  weakScore?: number;
  /**
   * Weighted share of the query's words (rare words weigh more, see `queryCoverage`) under which
   * the passages of a search are flagged "weak matches", whatever their score (default
   * {@link DEFAULT_WEAK_COVERAGE}; 0 turns it off).
   */
  weakCoverage?: number;
  /** Cap on distinct chunks shown to the model (for evals at an equal chunk budget). */
  maxChunks?: number;
  /**
   * Tokens (estimated as characters / 4, see `estimateTokens`) of one page of a section shown by
   * read_section, by each chunk of read_neighbors, and by each full-text search result
   * (default 800). Longer sections are paged with `offset`, never cut silently.
   */
  readTokens?: number;
  /**
   * Characters of passage text a page of search_docs results shows at most (default
   * `RESULT_TEXT_BUDGET`, result-texts.ts): short passages are shown whole within it, the others
   * by their snippet; 0 shows snippets only.
   */
  resultChars?: number;
  /**
   * The conversation's memory (earlier turns): its passages are skipped by search_docs like
   * passages of this run, and its texts are citable (see `SearchSession.citableEvidence`).
   * Budgets and duplicate-query refusals stay per session, so per turn. Read only here.
   */
  memory?: SearchMemory;
  /**
   * How pages from 3 on spread over documents (default `DEFAULT_PAGE_DIVERSITY` (page-diversity.ts): a third
   * passage of a page gives way to a page not seen yet); `false` keeps plain rank order.
   */
  pageDiversity?: PageDiversity | false;
}

export { DEFAULT_WEAK_COVERAGE };

/** Default weak-match threshold on the sqlite index's BM25 scores (docs/calibration.md). */
export const DEFAULT_WEAK_SCORE = 9.2;

/** {@link SearchSessionOptions} with every default filled in and the principal merged into the filter. */
export type ResolvedSessionOptions = Required<Omit<SearchSessionOptions, 'filter' | 'maxChunks' | 'principal' | 'memory'>> &
  Pick<SearchSessionOptions, 'filter' | 'maxChunks' | 'memory'>;

/**
 * The options a session runs with: the defaults filled in, the principal merged into the filter
 * (`withPrincipal`). Throws a usage `AtlasError` naming the value and a fix for a `readTokens` that
 * is not a positive whole number or a `resultChars` that is not a whole number from 0.
 *
 * @example
 * resolveSessionOptions({ index }).readTokens; // 800
 */
export function resolveSessionOptions(options: SearchSessionOptions): ResolvedSessionOptions {
  const { principal, ...rest } = options;
  const resolved: ResolvedSessionOptions = {
    maxSearches: 6,
    searchesBefore: 0,
    k: 5,
    weakScore: DEFAULT_WEAK_SCORE,
    weakCoverage: DEFAULT_WEAK_COVERAGE,
    ...rest,
    filter: withPrincipal(options.filter, principal),
    readTokens: options.readTokens ?? DEFAULT_READ_TOKENS,
    resultChars: options.resultChars ?? RESULT_TEXT_BUDGET,
    pageDiversity: options.pageDiversity ?? DEFAULT_PAGE_DIVERSITY,
  };
  const { readTokens, resultChars } = resolved;
  if (!Number.isInteger(readTokens) || readTokens < 1) {
    throw new AtlasError(
      'usage',
      `Atlas: SearchSession readTokens must be a positive whole number of tokens, got ${String(readTokens)}. Pass e.g. readTokens: ${DEFAULT_READ_TOKENS}.`,
    );
  }
  if (!Number.isInteger(resultChars) || resultChars < 0) {
    throw new AtlasError('usage', `Atlas: SearchSession resultChars must be a whole number of characters from 0, got ${String(resultChars)}. Pass e.g. resultChars: ${RESULT_TEXT_BUDGET}, or 0 for snippets only.`);
  }
  return resolved;
}
