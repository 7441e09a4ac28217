import { COLUMN_COUNT, type Posting } from './postings-codec.ts';

/**
 * The skip entries of the postings store: per block of a term, where it is stored (row key,
 * offset and length in the row), its last chunk id, count, and the bounds BM25 needs to cap the
 * block's scores (shortest chunk, largest count per column), so that a search moves over and
 * bounds blocks without decoding them. Blocks are stored {@link ROW_BLOCKS} to a row: a row is read at once.
 */

/**
 * Blocks per stored row (about 9 KB: a page and part of an overflow page). Reading a row costs
 * about as much per row as per byte, so 16 blocks to a row searched 10-25% faster than 8 at 100k
 * chunks (about 10% at 1M) and 32 no faster than 16 (docs/performance.md). Rows of another
 * size (an index written with 8) read the same, as the skip entries locate every block, and
 * stay writable: a removal rewrites a row with at most the blocks it held, an append rewrites the
 * last row and the rows after it with 16.
 */
export const ROW_BLOCKS = 16;
/** 32-bit words per skip entry: row key, last id, count, min length, the per-column max counts, byte offset and length in the row. */
export const SKIP_WORDS = 6 + COLUMN_COUNT;
/** Where the offset and length of a block in its row are in a skip entry. */
export const SKIP_OFFSET = 4 + COLUMN_COUNT;

/** What a skip entry holds about its block. */
export interface BlockSummary {
  /** The key of the row holding the block (increasing with the ids it holds). */
  key: number;
  /** Where the block's bytes are in the row. */
  offset: number;
  length: number;
  lastId: number;
  count: number;
  /** The shortest chunk of the block, in tokens. */
  minLength: number;
  /** The largest count of the term in each column over the block. */
  maxCounts: number[];
}

/** The largest 32-bit word: counts and lengths of a chunk stay far below it. */
const MAX_WORD = 0xffffffff;

/**
 * The summary of a block's postings (at least one).
 *
 * @example
 * summarise(3, postings).lastId;
 */
export function summarise(key: number, postings: readonly Posting[], offset = 0, length = 0): BlockSummary {
  const maxCounts = new Array<number>(COLUMN_COUNT).fill(0);
  let minLength = MAX_WORD;
  for (const posting of postings) {
    for (let column = 0; column < COLUMN_COUNT; column += 1) maxCounts[column] = Math.max(maxCounts[column]!, posting.counts[column]!);
    minLength = Math.min(minLength, posting.length);
  }
  return { key, offset, length, lastId: postings[postings.length - 1]!.id, count: postings.length, minLength, maxCounts };
}

/**
 * Skip entries as one blob (the `skips` column of a term): {@link SKIP_WORDS} unsigned 32-bit
 * words per block, in block order.
 *
 * @example
 * decodeSkips(encodeSkips([summary]))[0]!.lastId === summary.lastId;
 */
export function encodeSkips(blocks: readonly BlockSummary[]): Uint8Array {
  const words = new Uint32Array(blocks.length * SKIP_WORDS);
  blocks.forEach((block, n) => {
    const at = n * SKIP_WORDS;
    words[at] = block.key;
    words[at + 1] = block.lastId;
    words[at + 2] = block.count;
    words[at + 3] = block.minLength;
    for (let column = 0; column < COLUMN_COUNT; column += 1) words[at + 4 + column] = Math.min(block.maxCounts[column]!, MAX_WORD);
    words[at + SKIP_OFFSET] = block.offset;
    words[at + SKIP_OFFSET + 1] = block.length;
  });
  return new Uint8Array(words.buffer);
}

/**
 * The skip entries of a `skips` blob as 32-bit words (a view when aligned, else a copy).
 *
 * @example
 * const words = skipWords(row.skips); // words[n * SKIP_WORDS + 1] is block n's last id
 */
export function skipWords(blob: Uint8Array): Uint32Array {
  if (blob.byteOffset % 4 === 0) return new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Uint32Array(blob.slice().buffer);
}

/**
 * The skip entries of a `skips` blob as summaries (for rewriting them).
 *
 * @example
 * decodeSkips(row.skips).length; // blocks of the term
 */
export function decodeSkips(blob: Uint8Array): BlockSummary[] {
  const words = skipWords(blob);
  const blocks: BlockSummary[] = [];
  for (let at = 0; at < words.length; at += SKIP_WORDS) {
    blocks.push({
      key: words[at]!,
      lastId: words[at + 1]!,
      count: words[at + 2]!,
      minLength: words[at + 3]!,
      maxCounts: Array.from(words.subarray(at + 4, at + 4 + COLUMN_COUNT)),
      offset: words[at + SKIP_OFFSET]!,
      length: words[at + SKIP_OFFSET + 1]!,
    });
  }
  return blocks;
}
