import type { Chunk } from '../corpus/types.ts';
import type { Hit, IndexBackend, SearchFilter } from '../index/types.ts';
import { EvidenceSet } from './evidence.ts';
import { queryKey } from './query-key.ts';

/** What a tool returns to the model: a value, or an error text the model can read. */
export type ToolOutcome = { ok: true; value: ToolValue } | { ok: false; error: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolValue = { [key: string]: any };

/** One search of the run, as recorded in the trace. */
export interface SearchStep {
  query: string;
  filter: SearchFilter;
  docIds: string[];
  newDocIds: string[];
  chunkIds: string[];
  /** How many already-seen passages were skipped. */
  skippedSeen: number;
  /** Best score among the index hits (seen or not); undefined when nothing matched. */
  bestScore?: number;
  note?: 'duplicate-query' | 'budget-exhausted' | 'no-new-results' | 'weak-matches' | 'chunk-budget';
}

/** One read of the run (read_section or read_neighbors). */
export interface ReadStep {
  tool: 'read_section' | 'read_neighbors';
  chunkId: string;
  found: boolean;
  newChunkIds: string[];
}

export interface SearchSessionOptions {
  index: IndexBackend;
  /** Enforced on every tool call; the model cannot widen it. */
  filter?: SearchFilter;
  /** Searches allowed, duplicates included (default 6). */
  maxSearches?: number;
  /** Passages per search (default 5). Stays in code: the model cannot change it. */
  k?: number;
  /** Best score under which a search is flagged "weak matches" (see docs/calibration.md). */
  weakScore?: number;
  /** Cap on distinct chunks shown to the model (for evals at an equal chunk budget). */
  maxChunks?: number;
}

/** Characters of a section returned by read_section and read_neighbors. */
export const READ_CAP = 2000;
/** Default weak-match threshold on the sqlite index's BM25 scores (docs/calibration.md). */
export const DEFAULT_WEAK_SCORE = 7.4;

/**
 * The stateful search tool of ONE conversation: skips passages already shown, refuses
 * duplicate queries, keeps a query log and the evidence set, and enforces the search budget,
 * the chunk budget and the version/label filters. Create one per run; never share it.
 *
 * @example
 * const session = new SearchSession({ index, filter: { version: '3.x' } });
 * const outcome = await session.searchDocs({ query: 'lease seconds' });
 */
export class SearchSession {
  readonly evidence = new EvidenceSet();
  readonly steps: SearchStep[] = [];
  readonly reads: ReadStep[] = [];
  readonly #options: Required<Omit<SearchSessionOptions, 'filter' | 'maxChunks'>> &
    Pick<SearchSessionOptions, 'filter' | 'maxChunks'>;
  readonly #queryKeys = new Set<string>();

  constructor(options: SearchSessionOptions) {
    this.#options = { maxSearches: 6, k: 5, weakScore: DEFAULT_WEAK_SCORE, ...options };
  }

  get maxSearches(): number {
    return this.#options.maxSearches;
  }

  /** Searches used so far (duplicates and refused over-budget calls are not double counted). */
  get searchesUsed(): number {
    return this.steps.filter((step) => step.note !== 'budget-exhausted' && step.note !== 'chunk-budget').length;
  }

  get budgetExhausted(): boolean {
    return this.searchesUsed >= this.#options.maxSearches;
  }

  get chunkBudgetExhausted(): boolean {
    return this.#options.maxChunks !== undefined && this.evidence.size >= this.#options.maxChunks;
  }

  /** Doc ids in first-seen order. */
  rankedDocIds(): string[] {
    return this.evidence.rankedDocIds();
  }

  /** The `search_docs` tool. */
  async searchDocs(args: { query: string; version?: string }, options: { fullText?: boolean } = {}): Promise<ToolOutcome> {
    const filter = this.#effectiveFilter(args.version);
    const base: SearchStep = { query: args.query, filter, docIds: [], newDocIds: [], chunkIds: [], skippedSeen: 0 };
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
    const key = queryKey(args.query, filter.version);
    if (this.#queryKeys.has(key)) {
      this.steps.push({ ...base, note: 'duplicate-query' });
      return { ok: true, value: { results: [], note: 'duplicate query: search for what is still missing.' } };
    }
    this.#queryKeys.add(key);
    const { k } = this.#options;
    const hits = await this.#options.index.search(args.query, { k: k + this.evidence.size, filter });
    const fresh = hits.filter((hit) => !this.evidence.has(hit.chunkId)).slice(0, Math.min(k, this.#chunksLeft()));
    const skippedSeen = hits.filter((hit) => this.evidence.has(hit.chunkId)).length;
    const stepIndex = this.steps.length + this.reads.length;
    const newDocIds = [...new Set(fresh.map((hit) => hit.docId).filter((docId) => !this.evidence.hasDoc(docId)))];
    const shownText = (hit: Hit) => (options.fullText ? hit.text.slice(0, READ_CAP) : hit.snippet);
    for (const hit of fresh) this.evidence.add(stripHit(hit), shownText(hit), stepIndex, options.fullText ? 'read' : 'search');
    const bestScore = hits[0]?.score;
    const weak = bestScore === undefined || bestScore < this.#options.weakScore;
    const note = fresh.length === 0 ? 'no-new-results' : weak ? 'weak-matches' : undefined;
    this.steps.push({
      ...base,
      docIds: [...new Set(fresh.map((hit) => hit.docId))],
      newDocIds,
      chunkIds: fresh.map((hit) => hit.chunkId),
      skippedSeen,
      bestScore,
      note,
    });
    return { ok: true, value: searchResultValue(fresh, skippedSeen, weak, options.fullText === true) };
  }

  /** The `read_section` tool: the full section (capped), or "not found" outside the filter. */
  async readSection(args: { chunk_id: string }): Promise<ToolOutcome> {
    const chunk = await this.#options.index.getChunk(args.chunk_id, this.#options.filter);
    if (!chunk) return this.#notFound('read_section', args.chunk_id);
    const added = this.#record(chunk);
    this.reads.push({ tool: 'read_section', chunkId: chunk.chunkId, found: true, newChunkIds: added ? [chunk.chunkId] : [] });
    return {
      ok: true,
      value: {
        ...passageValue(chunk),
        prev_chunk_id: chunk.prevChunkId ?? null,
        next_chunk_id: chunk.nextChunkId ?? null,
      },
    };
  }

  /** The `read_neighbors` tool: previous and next chunk of the same document. */
  async readNeighbors(args: { chunk_id: string }): Promise<ToolOutcome> {
    const { index, filter } = this.#options;
    if (!(await index.getChunk(args.chunk_id, filter))) return this.#notFound('read_neighbors', args.chunk_id);
    const neighbors = await index.neighbors(args.chunk_id, filter);
    const newChunkIds = neighbors.filter((chunk) => this.#record(chunk)).map((chunk) => chunk.chunkId);
    this.reads.push({ tool: 'read_neighbors', chunkId: args.chunk_id, found: true, newChunkIds });
    return { ok: true, value: { chunks: neighbors.map(passageValue) } };
  }

  #record(chunk: Chunk): boolean {
    return this.evidence.add(chunk, chunk.text.slice(0, READ_CAP), this.steps.length + this.reads.length, 'read');
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

function searchResultValue(fresh: Hit[], skippedSeen: number, weak: boolean, fullText: boolean): ToolValue {
  const notes: string[] = [];
  if (skippedSeen > 0) notes.push(`${skippedSeen} already-seen passages skipped`);
  if (fresh.length === 0) notes.push('no new passages: search for something else or answer');
  else if (weak) notes.push('weak matches: rewrite the query or conclude');
  return {
    results: fresh.map((hit) => ({
      chunk_id: hit.chunkId,
      doc_id: hit.docId,
      heading: hit.heading,
      applies_to: hit.appliesTo,
      score: Math.round(hit.score * 100) / 100,
      ...(fullText ? { text: hit.text.slice(0, READ_CAP) } : { snippet: hit.snippet }),
    })),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}

function passageValue(chunk: Chunk): ToolValue {
  return {
    chunk_id: chunk.chunkId,
    doc_id: chunk.docId,
    title: chunk.title,
    heading: chunk.heading,
    applies_to: chunk.appliesTo,
    text: chunk.text.slice(0, READ_CAP),
  };
}

function stripHit(hit: Hit): Chunk {
  const { score: _score, snippet: _snippet, ...chunk } = hit;
  return chunk;
}
