import { BLOCK_SIZE, ByteWriter, COLUMN_COUNT, readPostings, VarintReader, writePosting, type Posting } from './postings-codec.ts';
import { ROW_BLOCKS, summarise, type BlockSummary } from './postings-skips.ts';

/**
 * The stored blocks of one term as the postings writer (postings-writer.ts) rewrites them:
 * blocks encoded, filtered of removed chunks, packed again, and grouped into rows.
 */

/** A block ready to store: its bytes, and either its summary or its postings. */
export interface EncodedBlock {
  bytes: Uint8Array;
  summary?: BlockSummary;
  postings?: readonly Posting[];
}

/**
 * Blocks grouped {@link ROW_BLOCKS} to a row from row key `key` on: each row's bytes and its
 * blocks' summaries (a block's own summary, or one made from its postings).
 *
 * @example
 * rowsOf([{ bytes, postings }], 3); // [{ key: 3, bytes, summaries: [{ key: 3, offset: 0, length: bytes.length, ... }] }]
 */
export function rowsOf(blocks: readonly EncodedBlock[], key: number): Array<{ key: number; bytes: Uint8Array; summaries: BlockSummary[] }> {
  const rows: Array<{ key: number; bytes: Uint8Array; summaries: BlockSummary[] }> = [];
  for (let start = 0; start < blocks.length; start += ROW_BLOCKS) {
    const part = blocks.slice(start, start + ROW_BLOCKS);
    const rowKey = key + rows.length;
    const bytes = new Uint8Array(part.reduce((sum, block) => sum + block.bytes.length, 0));
    let offset = 0;
    const summaries = part.map((block) => {
      bytes.set(block.bytes, offset);
      const base = block.summary ?? summarise(0, block.postings!);
      const summary = { ...base, key: rowKey, offset, length: block.bytes.length };
      offset += block.bytes.length;
      return summary;
    });
    rows.push({ key: rowKey, bytes, summaries });
  }
  return rows;
}

/**
 * The block `bytes` without the postings of the `dead` ids, written into `out` (emptied first),
 * and the summary of what is left (count 0: nothing). A kept posting is copied as stored, but
 * for the gap of the first one after a dropped one, which is written again.
 *
 * @example
 * const left = withoutIds(block, new Set([5]), new ByteWriter());
 * left.count; // the block's count less one
 */
export function withoutIds(bytes: Uint8Array, dead: ReadonlySet<number>, out: ByteWriter): BlockSummary {
  out.length = 0;
  const reader = new VarintReader(bytes);
  const maxCounts = new Array<number>(COLUMN_COUNT).fill(0);
  let minLength = Number.MAX_SAFE_INTEGER;
  let id = 0;
  let lastKept = 0;
  let count = 0;
  let dropped = false;
  while (reader.at < bytes.length) {
    const start = reader.at;
    id += reader.read();
    const afterGap = reader.at;
    const mask = bytes[reader.at++]!;
    if (dead.has(id)) {
      for (let columns = mask; columns !== 0; columns &= columns - 1) reader.skip();
      reader.skip();
      dropped = true;
      continue;
    }
    for (let columns = mask; columns !== 0; columns &= columns - 1) {
      const column = 31 - Math.clz32(columns & -columns);
      maxCounts[column] = Math.max(maxCounts[column]!, reader.read());
    }
    minLength = Math.min(minLength, reader.read());
    let from = start;
    if (dropped) {
      out.varint(id - lastKept);
      from = afterGap;
      dropped = false;
    }
    out.reserve(reader.at - from);
    out.bytes.set(bytes.subarray(from, reader.at), out.length);
    out.length += reader.at - from;
    lastKept = id;
    count += 1;
  }
  return { key: 0, offset: 0, length: out.length, lastId: lastKept, count, minLength, maxCounts };
}

/**
 * The indexes of the blocks stored in the row of block `at` (consecutive: keys increase with the blocks).
 *
 * @example
 * blocksOfRow(decodeSkips(skips), 17); // [16, 17] when row 1 holds blocks 16 and 17
 */
export function blocksOfRow(blocks: readonly BlockSummary[], at: number): number[] {
  const key = blocks[at]!.key;
  let first = at;
  while (first > 0 && blocks[first - 1]!.key === key) first -= 1;
  const indexes: number[] = [];
  for (let next = first; next < blocks.length && blocks[next]!.key === key; next += 1) indexes.push(next);
  return indexes;
}

/**
 * The postings of `parts` (in id order) in full blocks of {@link BLOCK_SIZE}, the last one shorter.
 *
 * @example
 * repacked([{ bytes: new Uint8Array(0), postings: tail }, ...added]).length; // ceil((tail + added postings) / 128)
 */
export function repacked(parts: readonly EncodedBlock[]): EncodedBlock[] {
  const postings = parts.flatMap((part) => part.postings ?? readPostings(part.bytes));
  return chunked(postings, BLOCK_SIZE).map((block) => ({ bytes: encodeBlock(block), postings: block }));
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}

/** One block of postings (ids increasing). */
function encodeBlock(postings: readonly Posting[]): Uint8Array {
  const out = new ByteWriter(postings.length * 4);
  let previous = 0;
  for (const posting of postings) {
    writePosting(out, posting, previous);
    previous = posting.id;
  }
  return out.take();
}

/**
 * The first block whose last id is at least `id` (blocks in id order); `blocks.length` if none.
 *
 * @example
 * firstBlockEndingAtOrAfter(decodeSkips(skips), 812); // the block that would hold chunk 812
 */
export function firstBlockEndingAtOrAfter(blocks: readonly BlockSummary[], id: number): number {
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (blocks[middle]!.lastId < id) low = middle + 1;
    else high = middle;
  }
  return low;
}
