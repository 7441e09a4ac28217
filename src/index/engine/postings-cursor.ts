import { COLUMN_COUNT, decodeUntil, type DecodedBlock } from './postings-codec.ts';
import { K1, lengthNorm, type Scoring, type TermInfo } from './postings-bm25.ts';
import type { WindowBuffers } from './postings-scratch.ts';
import { SKIP_OFFSET, SKIP_WORDS } from './postings-skips.ts';
import type { PostingsReader } from './postings-store.ts';

/**
 * The cursor over one term's postings that postings-search.ts ranks with: blocks skipped by their
 * skip entries, decoded on demand, each posting's BM25 contribution as FTS5 computes it, and a
 * window's postings read term at a time (the top-k heap is postings-topk.ts).
 */

/** BM25's k1 + 1 (postings-bm25.ts), as a constant of this module: an imported binding is read from its module on every use, in the hottest line of a search. */
const K1_PLUS_1 = K1 + 1;
/** Bounds are raised by this factor, so float rounding in a sum never makes a bound fall below a score it bounds. */
const SLACK = 1 + 1e-9;
/** Rows (of 8 blocks) read per statement at first; doubled while a term is read in order, up to {@link MAX_PREFETCH}. */
const MIN_PREFETCH = 1;
const MAX_PREFETCH = 64;

/** No rows read yet. */
const NO_ROWS: Array<[number, Uint8Array]> = [];

/** The position of an exhausted cursor. */
export const END = Number.MAX_SAFE_INTEGER;

/**
 * A cursor over one term's postings in id order: block skipping through the skip entries, blocks
 * read in batches and decoded only when one of their chunks is asked for.
 *
 * Its position is a block and, once decoded, a posting in it. {@link TermCursor.shallowAdvance}
 * moves to a block without decoding it: then {@link TermCursor.lowerBound} is all that is known
 * of the current chunk, until {@link TermCursor.doc} decodes the block.
 */
export class TermCursor {
  readonly slot: number;
  readonly multiplicity: number;
  /** The term's largest contribution to a score (all its phrases), raised by {@link SLACK}. */
  readonly maxBound: number;
  private readonly reader: PostingsReader;
  private readonly termId: number;
  private readonly skips: Uint32Array;
  private readonly blockCount: number;
  /** The key of the term's last row (of its last block): no row of the term comes after it. */
  private readonly lastRowKey: number;
  private readonly bounds: Float64Array;
  private readonly idf: number;
  private readonly scoring: Scoring;
  private readonly norms: Float64Array;
  /** The current block's postings as far as decoded (a buffer of the caller's, reused by the next search). */
  private readonly decoded: DecodedBlock;
  /** The row holding the block `decoded` holds, and where the block ends in it (decoded up to `decoded.end`). */
  private row: Uint8Array = new Uint8Array(0);
  private blockEnd = 0;
  /** The rows of the last batch read ([key, bytes] in key order) and the next one to look at. */
  private fetched: Array<[number, Uint8Array]> = NO_ROWS;
  private fetchedAt = 0;
  private prefetch = MIN_PREFETCH;
  private block = 0;
  /** Which block `decoded` holds (-1: none). */
  private decodedBlock = -1;
  private position = 0;
  /** The current chunk is at least this id. */
  private target = 0;

  constructor(reader: PostingsReader, term: TermInfo, slot: number, scoring: Scoring, decoded: DecodedBlock) {
    this.reader = reader;
    this.decoded = decoded;
    this.slot = slot;
    this.multiplicity = term.multiplicity;
    this.scoring = scoring;
    this.norms = scoring.norms;
    this.termId = term.stored.id;
    this.skips = term.stored.skips;
    this.blockCount = this.skips.length / SKIP_WORDS;
    this.lastRowKey = this.blockCount === 0 ? -1 : this.skips[(this.blockCount - 1) * SKIP_WORDS]!;
    this.idf = term.idf;
    this.bounds = new Float64Array(this.blockCount);
    let max = 0;
    for (let n = 0; n < this.blockCount; n += 1) {
      const at = n * SKIP_WORDS;
      let frequency = 0;
      for (let column = 0; column < COLUMN_COUNT; column += 1) frequency += scoring.weights[column]! * this.skips[at + 4 + column]!;
      const bound = this.score(frequency, this.skips[at + 3]!) * this.multiplicity * SLACK;
      this.bounds[n] = bound;
      if (bound > max) max = bound;
    }
    this.maxBound = max;
  }

  /** Whether the postings are exhausted. */
  done(): boolean {
    return this.block >= this.blockCount;
  }

  /** The current chunk id (decoding its block if needed), or END. */
  doc(): number {
    if (this.block >= this.blockCount) return END;
    if (this.decodedBlock !== this.block) {
      this.load(this.block);
      this.position = 0;
      this.seek(this.target);
    }
    return this.decoded.ids[this.position]!;
  }

  /** What is known of the current chunk id without decoding: at least this (END when exhausted). */
  lowerBound(): number {
    if (this.block >= this.blockCount) return END;
    if (this.decodedBlock === this.block) return this.decoded.ids[this.position]!;
    return this.target;
  }

  /** The current chunk's contribution for one phrase of this term (after {@link TermCursor.doc}). */
  contribution(): number {
    return this.score(this.decoded.frequencies[this.position]!, this.decoded.lengths[this.position]!);
  }

  blockBound(): number {
    return this.bounds[this.block]!;
  }

  blockLastId(): number {
    return this.skips[this.block * SKIP_WORDS + 1]!;
  }

  /**
   * The postings of the blocks from the current one on that may hold ids up to `last` (the
   * current block counted whole), or a number above `limit` once they exceed it: what reading
   * the term up to `last` would decode, known from the skip entries alone.
   */
  postingsUpTo(last: number, limit: number): number {
    let total = 0;
    for (let block = this.block; block < this.blockCount; block += 1) {
      if (block > this.block && this.skips[(block - 1) * SKIP_WORDS + 1]! >= last) break;
      total += this.skips[block * SKIP_WORDS + 2]!;
      if (total > limit) break;
    }
    return total;
  }

  /** To the next posting (the current one was read with {@link TermCursor.doc}). */
  next(): void {
    this.position += 1;
    if (this.position < this.decoded.count) return;
    if (this.decoded.end < this.blockEnd) {
      // Read in order: the rest of the block at once.
      this.decodeMore(Infinity);
      return;
    }
    this.block += 1;
    this.target = this.skips[(this.block - 1) * SKIP_WORDS + 1]! + 1;
  }

  /**
   * Reads the postings from chunk `from` up to chunk `last` in order (the cursor ends on the first
   * after it), for a window of chunks from `from`: each one's contribution (one phrase) into `window.cells` at
   * `column + id - from`, stamped `stamp` in `window.stamps`. When `markedCount` is given (an
   * essential term), each is also added, times the multiplicity, into `window.sums`, and a chunk
   * not yet marked is marked in `window.marks` and counted; returns the new count of marked
   * chunks. The loop of a search that reads most postings: it walks the decoded arrays directly
   * rather than through {@link TermCursor.doc} and {@link TermCursor.next}.
   */
  readWindow(from: number, last: number, window: WindowBuffers, column: number, stamp: number, markedCount = -1): number {
    const { cells, stamps, sums, marks } = window;
    const decoded = this.decoded;
    const multiplicity = this.multiplicity;
    let count = markedCount;
    // A non-essential term's cursor may lag behind the window (it moves only when looked up in):
    // its postings before `from` are not the window's (their cells would be another term's).
    this.shallowAdvance(from);
    while (this.block < this.blockCount) {
      if (this.decodedBlock !== this.block) {
        if (this.target > last) break;
        this.doc();
      }
      const { ids, frequencies, lengths } = decoded;
      let position = this.position;
      for (;;) {
        if (position >= decoded.count) {
          if (decoded.end >= this.blockEnd) break;
          this.decodeMore(Infinity);
          continue;
        }
        const id = ids[position]!;
        if (id > last) {
          this.position = position;
          return count;
        }
        const at = id - from;
        const contribution = this.score(frequencies[position]!, lengths[position]!);
        cells[column + at] = contribution;
        stamps[column + at] = stamp;
        if (count >= 0) {
          sums[at] = sums[at]! + contribution * multiplicity;
          const word = at >>> 5;
          const bit = 1 << (at & 31);
          const marked = marks[word]!;
          if ((marked & bit) === 0) {
            marks[word] = marked | bit;
            count += 1;
          }
        }
        position += 1;
      }
      // The block is read: on to the next, undecoded.
      this.position = position;
      this.block += 1;
      this.target = this.skips[(this.block - 1) * SKIP_WORDS + 1]! + 1;
    }
    return count;
  }

  /** To the block that holds the first chunk with id >= target, without decoding it. */
  shallowAdvance(target: number): void {
    if (this.lowerBound() >= target) return;
    let block = this.block;
    while (block < this.blockCount && this.skips[block * SKIP_WORDS + 1]! < target) block += 1;
    if (block !== this.block || this.decodedBlock !== block) {
      this.block = block;
      this.target = target;
      return;
    }
    // The decoded block holds it: move within.
    this.seek(target);
  }

  /** To the first posting of the decoded block with id >= target, decoding as far as needed. */
  private seek(target: number): void {
    const decoded = this.decoded;
    let position = this.position;
    for (;;) {
      while (position < decoded.count && decoded.ids[position]! < target) position += 1;
      if (position < decoded.count || decoded.end >= this.blockEnd) break;
      this.decodeMore(target);
    }
    this.position = position;
  }

  private decodeMore(until: number): void {
    const before = this.decoded.count;
    decodeUntil(this.row, this.blockEnd, this.scoring.weights, this.decoded, until);
    if (this.scoring.stats !== undefined) this.scoring.stats.decoded += this.decoded.count - before;
  }

  /** To the first chunk with id >= target; returns it (or END). */
  advance(target: number): number {
    this.shallowAdvance(target);
    return this.doc();
  }

  /** BM25's part for one phrase, as fts5_aux.c computes it. */
  private score(frequency: number, length: number): number {
    const norms = this.norms;
    const norm = length < norms.length ? norms[length]! : lengthNorm(length, this.scoring.averageLength);
    return this.idf * ((frequency * K1_PLUS_1) / (frequency + norm));
  }

  private load(block: number): void {
    const at = block * SKIP_WORDS;
    const key = this.skips[at]!;
    // Blocks are loaded in increasing key order: the batch is looked through from where the last
    // block's row was.
    const fetched = this.fetched;
    let next = this.fetchedAt;
    while (next < fetched.length && fetched[next]![0] < key) next += 1;
    if (next === fetched.length || fetched[next]![0] !== key) {
      // Rows read in order come in growing batches; a jump starts over with one.
      const lastKey = fetched.length === 0 ? -1 : fetched[fetched.length - 1]![0];
      this.prefetch = key === lastKey + 1 ? Math.min(this.prefetch * 2, MAX_PREFETCH) : MIN_PREFETCH;
      // No more rows than the term has from this one on: the one row of most terms is then read
      // by its rowid, cheaper than a range (postings-store.ts).
      this.fetched = this.reader.rows(this.termId, key, Math.min(this.prefetch, this.lastRowKey - key + 1));
      next = 0;
    }
    this.fetchedAt = next;
    const row = this.fetched[next]![1];
    const offset = this.skips[at + SKIP_OFFSET]!;
    this.row = row;
    this.blockEnd = offset + this.skips[at + SKIP_OFFSET + 1]!;
    this.decoded.count = 0;
    this.decoded.end = offset;
    this.decoded.lastId = 0;
    this.decodedBlock = block;
  }
}
