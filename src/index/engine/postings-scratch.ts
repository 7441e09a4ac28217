import { newDecodedBlock, type DecodedBlock } from './postings-codec.ts';

/**
 * The per-window buffers postings-cursor.ts's `TermCursor.readWindow` writes (part of
 * {@link RankScratch}): by position in the window, whether an essential term holds the chunk (a
 * bit each, 32 to a word: the chunks are then found in id order a word at a time,
 * {@link MarkedPositions}) and the sum of their contributions; by term column and position,
 * contributions and stamps.
 */
export interface WindowBuffers {
  marks: Int32Array;
  sums: Float64Array;
  cells: Float64Array;
  stamps: Int32Array;
}

/** Chunk ids per window of the term-at-a-time passes (postings-search.ts, postings-seed.ts). */
export const WINDOW = 2_048;

/**
 * The window buffers of topByBm25 (postings-search.ts), for an index to reuse across its searches instead of
 * allocating (and zero-filling) about 300 KB per long question. The search leaves `marks` and
 * `sums` zeroed, and `cells` valid only where `stamps` holds the window's stamp (so nothing needs
 * clearing); one that did not finish (it threw) leaves them marked, and the next search starts afresh.
 */
export interface RankScratch extends WindowBuffers {
  /** The last window's stamp (each window takes the next). */
  stamp: number;
  /** One decoding buffer per cursor (about 2 KB each), as many as the longest question so far had terms. */
  blocks: DecodedBlock[];
  /** The length normalisations of the last search's average chunk length (postings-bm25.ts's lengthNorms). */
  norms?: { averageLength: number; norms: Float64Array };
  /** The positions marked in `marks`, taken in order (see {@link MarkedPositions}). */
  marked: MarkedPositions;
  /** False while a search uses them (or after one that threw). */
  clean: boolean;
}

/**
 * New {@link RankScratch} buffers.
 *
 * @example
 * const scratch = createRankScratch();
 * topByBm25(reader, { tokens, weights, k: 10, scratch });
 */
export function createRankScratch(): RankScratch {
  const marks = new Int32Array(WINDOW / 32);
  return { marks, marked: new MarkedPositions(marks), sums: new Float64Array(WINDOW), cells: new Float64Array(0), stamps: new Int32Array(0), stamp: 0, blocks: [], clean: true };
}

/** The next window stamp of `scratch` (after 2^31 - 1 windows, the stamps start over). */
export function nextStamp(scratch: RankScratch): number {
  if (scratch.stamp === 0x7fffffff) {
    scratch.stamps.fill(0);
    scratch.stamp = 0;
  }
  return (scratch.stamp += 1);
}

/** Decoding buffer `n` of `scratch` (the seed pass and the main pass each use theirs from 0: one ends before the other starts). */
export function blockOf(scratch: RankScratch, n: number): DecodedBlock {
  while (scratch.blocks.length <= n) scratch.blocks.push(newDecodedBlock());
  return scratch.blocks[n]!;
}

/**
 * The positions of a window that essential terms marked (WindowBuffers.marks, a bit per
 * position), in increasing order: a 32-bit word at a time, lowest set bit first, each word zeroed
 * as it is taken, so the marks are clear again for the next window once all were taken.
 *
 * @example
 * scratch.marked.start(span);
 * for (let at = scratch.marked.next(); at >= 0; at = scratch.marked.next()) visit(from + at);
 */
export class MarkedPositions {
  private readonly marks: Int32Array;
  private word = 0;
  private words = 0;
  private bits = 0;

  constructor(marks: Int32Array) {
    this.marks = marks;
  }

  /** Starts on a window of `span` positions. */
  start(span: number): void {
    this.word = -1;
    this.words = (span + 31) >>> 5;
    this.bits = 0;
  }

  /** The next marked position, or -1 when every one was taken. */
  next(): number {
    let bits = this.bits;
    while (bits === 0) {
      this.word += 1;
      if (this.word >= this.words) return -1;
      bits = this.marks[this.word]!;
      this.marks[this.word] = 0;
    }
    const low = bits & -bits;
    this.bits = bits ^ low;
    return (this.word << 5) | (31 - Math.clz32(low));
  }
}
