// What one conversation's search session carries from turn to turn.
import type { Chunk } from '../../corpus/types.ts';
import type { Hit } from '../../index/types.ts';
import { EvidenceSet, type EvidenceSource } from '../trust/evidence.ts';
import { headingPathText } from './tool-values.ts';

/** One passage an earlier turn was shown: the chunk id and exactly the texts shown (snippets, pages). */
export interface RememberedPassage {
  chunkId: string;
  texts: string[];
  source: EvidenceSource;
}

/**
 * The memory of ONE conversation's search session: every passage its turns were shown, with
 * exactly the texts shown. A run given a memory (`memory` of `agenticRun`/`classicAsk`) skips
 * these passages in its searches (they are counted in `skippedSeen`), may cite them (its
 * citations are verified against this conversation's evidence: its own and its earlier turns'),
 * and adds what it was shown when it ends. Budgets and duplicate-query refusals stay per turn.
 * Make one per conversation; never share it.
 *
 * @example
 * const memory = new SearchMemory();
 * await agenticRun('How do I deploy Orbit with Docker?', { model, index, memory });
 * await agenticRun('and how do I stop it safely?', { model, index, memory, history });
 * memory.takeChanges(); // the passages to persist
 */
export class SearchMemory {
  readonly #evidence = new EvidenceSet();
  readonly #changed = new Set<string>();

  /** True when an earlier turn was shown this chunk. */
  has(chunkId: string): boolean {
    return this.#evidence.has(chunkId);
  }

  /** Passages remembered. */
  get size(): number {
    return this.#evidence.size;
  }

  /** Every remembered passage, in first-shown order. */
  passages(): RememberedPassage[] {
    return this.#evidence.items().map((item) => ({ chunkId: item.chunk.chunkId, texts: [...item.shown], source: item.source }));
  }

  /** Adds the passages a finished turn was shown (new texts of known passages too). */
  remember(evidence: EvidenceSet): void {
    for (const item of evidence.items()) for (const text of item.shown) this.#add(item.chunk, text, item.source);
  }

  /** Adds every passage of `other` (a copy made for a run that may be set aside, see `clone`). */
  merge(other: SearchMemory): void {
    this.remember(other.#evidence);
  }

  /** An independent copy: what a run that may be set aside (route auto's classic pass) works on. */
  clone(): SearchMemory {
    const copy = new SearchMemory();
    for (const item of this.#evidence.items()) for (const text of item.shown) copy.#evidence.add(item.chunk, text, -1, item.source);
    return copy;
  }

  /**
   * The hits of one search page that an earlier turn was shown and this run was not, at most
   * `limit`, as search_docs names them in `shown_earlier`: id, doc, heading path and `rank`, the
   * hit's place in the page of the query's ranking (0 = best, seen passages included).
   *
   * @example
   * memory.shownEarlier(hits, session.evidence, 5); // [{ chunk_id: 'deploy#1', doc_id: 'deploy', heading_path: 'Deploying > Rolling back', rank: 0 }]
   */
  shownEarlier(hits: Hit[], current: EvidenceSet, limit: number): Array<{ chunk_id: string; doc_id: string; heading_path: string; rank: number }> {
    return hits
      .map((hit, rank) => ({ hit, rank }))
      .filter(({ hit }) => !current.has(hit.chunkId) && this.has(hit.chunkId))
      .slice(0, limit)
      .map(({ hit, rank }) => ({ chunk_id: hit.chunkId, doc_id: hit.docId, heading_path: headingPathText(hit), rank }));
  }

  /** The passages added or grown since the last call (what a store must write), and forgets them. */
  takeChanges(): RememberedPassage[] {
    const changed = this.passages().filter((passage) => this.#changed.has(passage.chunkId));
    this.#changed.clear();
    return changed;
  }

  /** This memory's evidence followed by `current`'s: what a turn's citations are verified against. */
  with(current: EvidenceSet): EvidenceSet {
    const union = new EvidenceSet();
    for (const item of this.#evidence.items()) for (const text of item.shown) union.add(item.chunk, text, -1, item.source);
    for (const item of current.items()) for (const text of item.shown) union.add(item.chunk, text, item.firstStep, item.source);
    return union;
  }

  /**
   * A memory rebuilt from stored passages; `getChunk` looks each chunk up (under the
   * conversation's filter). A chunk the index no longer has, or no longer shows this
   * conversation, is left out: it can be neither found nor cited.
   *
   * @example
   * const memory = await SearchMemory.restore(rows, (chunkId) => index.getChunk(chunkId, filter));
   */
  static async restore(passages: RememberedPassage[], getChunk: (chunkId: string) => Promise<Chunk | undefined>): Promise<SearchMemory> {
    const memory = new SearchMemory();
    for (const passage of passages) {
      const chunk = await getChunk(passage.chunkId);
      if (chunk) for (const text of passage.texts) memory.#evidence.add(chunk, text, -1, passage.source);
    }
    return memory;
  }

  #add(chunk: Chunk, text: string, source: EvidenceSource): void {
    const before = this.#evidence.get(chunk.chunkId);
    const known = before !== undefined && before.shown.includes(text) && (before.source === 'read' || source === 'search');
    this.#evidence.add(chunk, text, -1, source);
    if (!known) this.#changed.add(chunk.chunkId);
  }
}
