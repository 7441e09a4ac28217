import type { Chunk } from '../../corpus/types.ts';

/** How a passage reached the run: shown as a search snippet, or read in full. */
export type EvidenceSource = 'search' | 'read';

/** One chunk the run saw or read, with exactly the texts it was shown. */
export interface EvidenceItem {
  chunk: Chunk;
  /**
   * Exactly the texts of this chunk that the model was shown, in the order shown: snippets, and
   * each page of the section that was read (page 2 of a long section appears only once read).
   */
  shown: string[];
  /** The step (search or read, counted from 0) at which the chunk first appeared. */
  firstStep: number;
  source: EvidenceSource;
}

/**
 * Every chunk a run saw or read, in first-seen order. Citations are verified against the texts
 * recorded here, never against chunks the run did not see.
 *
 * @example
 * const evidence = new EvidenceSet();
 * evidence.add(chunk, chunk.text.slice(0, 300), 0, 'search');
 * evidence.rankedDocIds(); // ['flows']
 */
export class EvidenceSet {
  readonly #items = new Map<string, EvidenceItem>();
  readonly #docIds = new Set<string>();

  /**
   * Records that `text` of `chunk` was shown (a text already recorded is not repeated); returns
   * true when the chunk is new to the run.
   */
  add(chunk: Chunk, text: string, step: number, source: EvidenceSource): boolean {
    const existing = this.#items.get(chunk.chunkId);
    if (existing) {
      if (!existing.shown.includes(text)) existing.shown.push(text);
      if (source === 'read') existing.source = 'read';
      return false;
    }
    this.#items.set(chunk.chunkId, { chunk, shown: [text], firstStep: step, source });
    this.#docIds.add(chunk.docId);
    return true;
  }

  has(chunkId: string): boolean {
    return this.#items.has(chunkId);
  }

  get(chunkId: string): EvidenceItem | undefined {
    return this.#items.get(chunkId);
  }

  get size(): number {
    return this.#items.size;
  }

  /** Items in first-seen order. */
  items(): EvidenceItem[] {
    return [...this.#items.values()];
  }

  /** Doc ids in the order the run first saw them. */
  rankedDocIds(): string[] {
    return [...this.#docIds];
  }

  /** True when some chunk of `docId` was already seen. */
  hasDoc(docId: string): boolean {
    return this.#docIds.has(docId);
  }
}
