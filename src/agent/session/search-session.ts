import type { Chunk } from '../../corpus/types.ts';
import type { Hit, SearchFilter } from '../../index/types.ts';
import { EvidenceSet, type EvidenceSource } from '../trust/evidence.ts';
import { narrowLabels } from '../policy/model-labels.ts';
import { diversePage } from './page-diversity.ts';
import { queryKey } from './query-key.ts';
import { pageStrength } from './query-coverage.ts';
import { contextNeighbors, neighborsNote, sideOf } from './section-context.ts';
import { lineMatches, neighbourTerms, queryHasTerms } from './section-matches.ts';
import { tableParts, tablePartsByChunk } from './table-parts.ts';
import { createLinkResolver, type LinkResolver } from './passage-links.ts';
import { resultLinks, resultPages, skippedHits } from './result-page.ts';
import { offsetError, sectionPage, type SectionPage } from './section-page.ts';
import type { ReadStep, SearchStep } from './search-steps.ts';
import { resolveSessionOptions, type ResolvedSessionOptions, type SearchSessionOptions } from './search-session-options.ts';
import { contextValue, linksValue, matchesNote, neighborValue, passageValue, searchResultValue, type ToolOutcome, type ToolValue } from './tool-values.ts';

export type { ToolOutcome, ToolValue } from './tool-values.ts';
export type { ReadStep, SearchStep } from './search-steps.ts';
export { DEFAULT_WEAK_COVERAGE, DEFAULT_WEAK_SCORE, type SearchSessionOptions } from './search-session-options.ts';

/**
 * The stateful search tool of ONE conversation: skips passages already shown, refuses
 * duplicate queries, keeps a query log and the evidence set, and enforces the search budget,
 * the chunk budget and the version/label filters. Sections are shown in pages of at most
 * `readTokens` tokens; the evidence set records exactly each page shown. Create one per run;
 * never share it. A conversation's later turns pass its `SearchMemory`: their sessions skip what
 * earlier turns were shown (and name it in `shown_earlier`) with a budget of their own.
 *
 * @example
 * const session = new SearchSession({ index, filter: { version: '3.x' }, readTokens: 800 });
 * const outcome = await session.searchDocs({ query: 'lease seconds' });
 * const page1 = await session.readSection({ chunk_id: 'error-codes#1' }); // { ..., next_offset: 3104, complete: false }
 * const page2 = await session.readSection({ chunk_id: 'error-codes#1', offset: 3104 });
 */
export class SearchSession {
  readonly evidence = new EvidenceSet();
  readonly steps: SearchStep[] = [];
  readonly reads: ReadStep[] = [];
  readonly #options: ResolvedSessionOptions;
  readonly #queryKeys = new Set<string>();
  /** Character ranges of each chunk shown so far, so line matches point only at unseen text. */
  readonly #shownRanges = new Map<string, Array<[start: number, end: number]>>();
  /** Resolves the links of passages shown to chunks this session's filter lets through. */
  readonly #links: LinkResolver;

  constructor(options: SearchSessionOptions) {
    this.#options = resolveSessionOptions(options);
    this.#links = createLinkResolver(this.#options.index, this.#options.filter);
  }

  /** The filter every tool call is held to (the principal merged in); model-chosen labels only narrow it. */
  get filter(): SearchFilter | undefined {
    return this.#options.filter;
  }

  get maxSearches(): number {
    return this.#options.maxSearches;
  }

  /** Searches used so far (duplicates and refused over-budget calls are not double counted), `searchesBefore` included. */
  get searchesUsed(): number {
    return this.#options.searchesBefore + this.steps.filter((step) => step.note !== 'budget-exhausted' && step.note !== 'chunk-budget').length;
  }

  get budgetExhausted(): boolean {
    return this.searchesUsed >= this.#options.maxSearches;
  }

  get chunkBudgetExhausted(): boolean {
    return this.#options.maxChunks !== undefined && this.evidence.size >= this.#options.maxChunks;
  }

  /** What this run's citations are verified against: the conversation's earlier evidence (its memory), then this run's. */
  citableEvidence(): EvidenceSet {
    return this.#options.memory ? this.#options.memory.with(this.evidence) : this.evidence;
  }

  /** A chunk as the index holds it now, under this session's filter: what an answer's citations are checked against at its end. */
  currentChunk(chunkId: string): Promise<Chunk | undefined> {
    return this.#options.index.getChunk(chunkId, this.#options.filter);
  }

  /** Doc ids in first-seen order. */
  rankedDocIds(): string[] {
    return this.evidence.rankedDocIds();
  }

  /**
   * The `search_docs` tool: snippets of unseen passages, or with `fullText` the first page of
   * each (a cut page says so and names the read_section offset that reads on). `page` n (default
   * 1) starts at rank (n - 1) * k + 1 of the query's ranking: repeating a query with the next page
   * shows its next results (passages already seen are still skipped), while repeating the same
   * page is refused as a duplicate. `labels` (the model labels the model chose) narrow the
   * enforced filter, never widen it (see `narrowLabels`): a value the enforced filter excludes
   * leaves it as it is, and the result's note says so. From page 3 on, a page holds at most 2
   * passages of one document (those seen before included): a third gives way to a document not
   * seen yet.
   */
  async searchDocs(args: { query: string; version?: string; page?: number; labels?: Record<string, string> }, options: { fullText?: boolean } = {}): Promise<ToolOutcome> {
    const { filter, conflicts } = narrowLabels(this.#effectiveFilter(args.version), args.labels);
    const page = args.page ?? 1;
    const base: SearchStep = { query: args.query, filter, docIds: [], newDocIds: [], chunkIds: [], skippedSeen: 0, ...(page > 1 ? { page } : {}) };
    if (!Number.isInteger(page) || page < 1) {
      return { ok: false, error: `invalid page ${String(page)}: page must be a whole number from 1 (1 = the best results, 2 = the next ${this.#options.k}).` };
    }
    if (this.budgetExhausted) {
      this.steps.push({ ...base, note: 'budget-exhausted' });
      return {
        ok: false,
        error: `search budget exhausted (${this.#options.maxSearches} searches used): answer now from the passages you have.`,
      };
    }
    if (this.chunkBudgetExhausted) {
      this.steps.push({ ...base, note: 'chunk-budget' });
      return { ok: false, error: 'passage budget exhausted: answer now from the passages you have.' };
    }
    // The labels count: the same words for another store are another search.
    const key = `${queryKey(args.query, filter.version)}#${page}#${JSON.stringify(filter.labels ?? {})}`;
    if (this.#queryKeys.has(key)) {
      this.steps.push({ ...base, note: 'duplicate-query' });
      return { ok: true, value: { results: [], note: `duplicate query: search for what is still missing, or ask for page ${page + 1} of it.` } };
    }
    this.#queryKeys.add(key);
    const { k } = this.#options;
    const skipped = (page - 1) * k;
    const seen = (chunkId: string) => this.evidence.has(chunkId) || this.#options.memory?.has(chunkId) === true;
    const remembered = this.#options.memory?.size ?? 0;
    const diversity = this.#options.pageDiversity;
    const lookahead = diversity && page >= diversity.fromPage ? diversity.lookahead : 0;
    const ranked = (await this.#options.index.search(args.query, { k: skipped + k + this.evidence.size + remembered + lookahead, filter })).slice(skipped);
    const unseen = ranked.filter((hit) => !seen(hit.chunkId));
    const seenDocIds = this.evidence.items().map((item) => item.chunk.docId);
    const ordered = lookahead > 0 && diversity ? diversePage(unseen.slice(0, k + lookahead), { k, maxPerDoc: diversity.maxPerDoc, seenDocIds }) : unseen;
    const fresh = ordered.slice(0, Math.min(k, this.#chunksLeft()));
    // The hits of the page itself: the lookahead ranks are not counted as skipped.
    const hits = ranked.slice(0, k + this.evidence.size + remembered);
    const passedOver = skippedHits(hits, fresh, ordered.length > fresh.length, seen);
    const stepIndex = this.steps.length + this.reads.length;
    const newDocIds = [...new Set(fresh.map((hit) => hit.docId).filter((docId) => !this.evidence.hasDoc(docId)))];
    const pages = resultPages(fresh, { fullText: options.fullText === true, budget: this.#options.resultChars, page: (text) => this.#page(text, 0) });
    for (const hit of fresh) {
      const page = pages.get(hit.chunkId);
      if (page) this.#show(stripHit(hit), page, stepIndex, 'read');
      else this.evidence.add(stripHit(hit), hit.snippet, stepIndex, 'search');
    }
    const bestScore = hits[0]?.score;
    const { coverage, uncovered, weak } = await pageStrength(args.query, fresh, bestScore, this.#options, this.#options.index);
    const note = fresh.length === 0 ? 'no-new-results' : weak ? 'weak-matches' : undefined;
    this.steps.push({
      ...base,
      docIds: [...new Set(fresh.map((hit) => hit.docId))],
      newDocIds,
      chunkIds: fresh.map((hit) => hit.chunkId),
      skippedSeen: passedOver.length,
      bestScore,
      ...(coverage === undefined ? {} : { coverage: coverage.share }),
      note,
      ...(conflicts.length > 0 ? { labelConflicts: conflicts } : {}),
    });
    // Passages skipped because an earlier turn was shown them are named, so the model can re-read one (a turn's prompt holds only earlier answers).
    const earlier = this.#options.memory?.shownEarlier(hits, this.evidence, k) ?? [];
    const value = searchResultValue(fresh, {
      skipped: passedOver,
      ...(weak ? { weak: uncovered ? { coverage } : {} } : {}),
      tables: await tablePartsByChunk(fresh, this.#options.index, filter),
      shownEarlier: new Set(passedOver.filter((hit) => !this.evidence.has(hit.chunkId)).map((hit) => hit.chunkId)),
      pages,
      ...(options.fullText === true ? { fullText: true } : {}),
      links: await resultLinks(fresh, pages, this.#links),
      ...(conflicts.length > 0 ? { conflicts } : {}),
      ...(page === 1 && ranked.length === 0 ? { matchedNothing: true } : {}),
    });
    if (earlier.length > 0) value.shown_earlier = earlier;
    return { ok: true, value };
  }

  /**
   * The `read_section` tool: one page of the section from `offset` (default 0), or "not found"
   * outside the filter at any offset. With a query (`query`, default: the run's last search),
   * `query_matches` says where it matches: the best lines of a section shown whole, or else the
   * best lines not shown yet (a cut page's note names them, or says none matches); and
   * `neighbour_matches` names the previous or next section that holds the query's words this one
   * lacks (a definition's signature, parameters and notes are consecutive chunks). A section of
   * fewer than `TINY_SECTION_CHARS` characters comes with the first lines of its neighbours
   * (`previous_section`, `next_section`), so one read gives its context. A part of a table split
   * over chunks names them all (`table_parts`).
   */
  async readSection(args: { chunk_id: string; offset?: number; query?: string }): Promise<ToolOutcome> {
    const { index, filter } = this.#options;
    const chunk = await index.getChunk(args.chunk_id, filter);
    if (!chunk) return this.#notFound('read_section', args.chunk_id);
    const offset = args.offset ?? 0;
    const invalid = offsetError(offset, chunk.chunkId, chunk.text.length);
    if (invalid !== undefined) {
      this.reads.push({ tool: 'read_section', chunkId: chunk.chunkId, found: true, newChunkIds: [], offset, note: 'invalid-offset' });
      return { ok: false, error: invalid };
    }
    const page = this.#page(chunk.text, offset);
    const step = this.steps.length + this.reads.length;
    const newChunkIds = this.#show(chunk, page, step, 'read') ? [chunk.chunkId] : [];
    // Links only to neighbors the filter lets through: a restricted neighbor's id is not shown either.
    const neighbors = await index.neighbors(chunk.chunkId, filter);
    const linked = new Set(neighbors.map((neighbor) => neighbor.chunkId));
    const link = (chunkId: string | undefined) => (chunkId !== undefined && linked.has(chunkId) ? chunkId : null);
    const context: ToolValue = {};
    for (const { relation, chunk: neighbor, page: first } of offset === 0 ? contextNeighbors(chunk, neighbors, this.#options.readTokens) : []) {
      const shownBefore = this.evidence.get(neighbor.chunkId)?.shown.some((text) => text.startsWith(first.text)) === true;
      if (!shownBefore && !this.evidence.has(neighbor.chunkId) && this.#chunksLeft() <= 0) continue;
      if (!shownBefore && this.#show(neighbor, first, step, 'read')) newChunkIds.push(neighbor.chunkId);
      context[`${relation}_section`] = contextValue(neighbor, first, shownBefore);
    }
    this.reads.push({ tool: 'read_section', chunkId: chunk.chunkId, found: true, newChunkIds, offset, nextOffset: page.nextOffset });
    const query = args.query ?? this.steps.at(-1)?.query ?? '';
    const whole = page.complete && offset === 0;
    const matches = queryHasTerms(query) ? lineMatches(chunk.text, query, { shown: whole ? [] : (this.#shownRanges.get(chunk.chunkId) ?? []) }) : undefined;
    const neighbour =
      matches === undefined ? undefined : neighbourTerms(query, chunk.text, neighbors.map((neighbor) => ({ relation: sideOf(neighbor, chunk), chunkId: neighbor.chunkId, text: neighbor.text })));
    const parts = await tableParts(chunk, index, filter);
    const links = await this.#links.links(chunk, page.text);
    return {
      ok: true,
      value: {
        ...passageValue(chunk, page, matches === undefined ? '' : matchesNote(query, matches)),
        ...(matches === undefined ? {} : { query_matches: matches }),
        ...(neighbour === undefined ? {} : { neighbour_matches: { chunk_id: neighbour.chunkId, position: neighbour.relation, terms: neighbour.terms } }),
        ...(parts ? { table_parts: parts } : {}),
        ...(links.length > 0 ? { links: linksValue(links) } : {}),
        prev_chunk_id: link(chunk.prevChunkId),
        next_chunk_id: link(chunk.nextChunkId),
        ...context,
      },
    };
  }

  /**
   * The `read_neighbors` tool: the first page of the previous and next chunk of the same
   * document, each with its `position`; a note says which of them the page does not have (the
   * first or last section the caller may read), so a model does not look for it elsewhere.
   */
  async readNeighbors(args: { chunk_id: string }): Promise<ToolOutcome> {
    const { index, filter } = this.#options;
    const self = await index.getChunk(args.chunk_id, filter);
    if (!self) return this.#notFound('read_neighbors', args.chunk_id);
    const neighbors = await index.neighbors(args.chunk_id, filter);
    const step = this.steps.length + this.reads.length;
    const newChunkIds: string[] = [];
    const chunks: ToolValue[] = [];
    for (const chunk of neighbors) {
      const page = this.#page(chunk.text, 0);
      if (this.#show(chunk, page, step, 'read')) newChunkIds.push(chunk.chunkId);
      const links = await this.#links.links(chunk, page.text);
      chunks.push({ position: sideOf(chunk, self), ...neighborValue(chunk, page), ...(links.length > 0 ? { links: linksValue(links) } : {}) });
    }
    this.reads.push({ tool: 'read_neighbors', chunkId: args.chunk_id, found: true, newChunkIds });
    const note = neighborsNote(args.chunk_id, new Set(chunks.map((chunk) => chunk.position)));
    return { ok: true, value: { chunks, ...(note === undefined ? {} : { note }) } };
  }

  #page(text: string, offset: number): SectionPage {
    return sectionPage(text, { offset, maxTokens: this.#options.readTokens });
  }

  /** Records a page as shown: its exact text in the evidence set and its range for line matches. */
  #show(chunk: Chunk, page: SectionPage, step: number, source: EvidenceSource): boolean {
    const ranges = this.#shownRanges.get(chunk.chunkId) ?? [];
    ranges.push([page.offset, page.offset + page.text.length]);
    this.#shownRanges.set(chunk.chunkId, ranges);
    return this.evidence.add(chunk, page.text, step, source);
  }

  #notFound(tool: ReadStep['tool'], chunkId: string): ToolOutcome {
    this.reads.push({ tool, chunkId, found: false, newChunkIds: [] });
    return { ok: false, error: `chunk not found: ${chunkId}. Use a chunk_id returned by search_docs.` };
  }

  #chunksLeft(): number {
    const { maxChunks } = this.#options;
    return maxChunks === undefined ? Number.POSITIVE_INFINITY : Math.max(0, maxChunks - this.evidence.size);
  }

  #effectiveFilter(version: string | undefined): SearchFilter {
    const fixed = this.#options.filter ?? {};
    if (fixed.version !== undefined || version === undefined || version === '') return { ...fixed };
    return { ...fixed, version };
  }
}

function stripHit(hit: Hit): Chunk {
  const { score: _score, snippet: _snippet, snippetHeadingPath: _path, ...chunk } = hit;
  return chunk;
}
