/**
 * The byte format of a block of the postings store (postings-store.ts): at most
 * {@link BLOCK_SIZE} postings of one term (postings-skips.ts describes a block without decoding it).
 *
 * A posting is one chunk holding the term: its id, how often the term occurs in each of the
 * {@link COLUMN_COUNT} searched columns (title, heading, heading path, body, identifier
 * expansions: the order of the BM25 weights), and the chunk's length in tokens (all columns), so a
 * block alone gives every score. Encoded as varints: the id as the gap from the previous id of
 * the block (the first as itself, so that a block decodes alone and a rewritten block never
 * invalidates the next), a byte whose bits say which columns hold the term, one count per such
 * column, the length.
 */

/** Postings per block: a block is read, decoded and skipped as a whole. */
export const BLOCK_SIZE = 128;
/** The searched columns, in the order of the BM25 weights. */
export const COLUMN_COUNT = 5;
/** One posting as the ingest hands it over: chunk id, per-column counts, chunk length. */
export interface Posting {
  id: number;
  counts: ArrayLike<number>;
  length: number;
}

/**
 * Writes `value` (below 2^53) as a little-endian base-128 varint at `at` of `bytes`, which has
 * room (at most 8 bytes); returns the position after it.
 *
 * @example
 * putVarint(bytes, 0, 300); // 2: bytes [0xac, 0x02]
 */
export function putVarint(bytes: Uint8Array, at: number, value: number): number {
  let rest = value;
  let position = at;
  while (rest >= 0x80) {
    bytes[position++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  bytes[position++] = rest;
  return position;
}

/** A growable byte buffer with varint writes. */
export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 64) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Appends an unsigned integer below 2^53 as a little-endian base-128 varint. */
  varint(value: number): void {
    if (this.length + 8 > this.bytes.length) this.grow(8);
    this.length = putVarint(this.bytes, this.length, value);
  }

  byte(value: number): void {
    if (this.length + 1 > this.bytes.length) this.grow(1);
    this.bytes[this.length++] = value;
  }

  /** Makes room for `extra` more bytes, so a caller may write up to them into `bytes` from `length` on (and then set `length`). */
  reserve(extra: number): void {
    if (this.length + extra > this.bytes.length) this.grow(extra);
  }

  /** The bytes written, as a copy the caller owns. */
  take(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private grow(extra: number): void {
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}

/**
 * Appends one posting to a block being written; `previousId` is the id of the posting before it
 * in the block, 0 for the block's first.
 *
 * @example
 * const out = new ByteWriter();
 * writePosting(out, { id: 7, counts: [0, 0, 0, 2, 0], length: 31 }, 0);
 */
export function writePosting(out: ByteWriter, posting: Posting, previousId: number): void {
  out.varint(posting.id - previousId);
  let mask = 0;
  for (let column = 0; column < COLUMN_COUNT; column += 1) if (posting.counts[column]! > 0) mask |= 1 << column;
  out.byte(mask);
  for (let column = 0; column < COLUMN_COUNT; column += 1) if (posting.counts[column]! > 0) out.varint(posting.counts[column]!);
  out.varint(posting.length);
}

/**
 * The decoded postings of a block, `count` of each: ids, weighted term frequencies and lengths;
 * decoded up to byte `end` of the bytes holding the block, `lastId` the id of the last one decoded.
 */
export interface DecodedBlock {
  count: number;
  ids: Int32Array;
  frequencies: Float64Array;
  lengths: Int32Array;
  end: number;
  lastId: number;
}

/**
 * Decodes more of the block that ends at byte `end` of `bytes` (a row holds several blocks) into
 * `into` (reused across blocks), from where it stopped (`into.end`; a fresh block from its first
 * byte with count and lastId 0) until a posting with id >= `until` is decoded or the block ends
 * (`until` Infinity: the whole block): ids, the term frequency weighted per column by `weights`
 * (as FTS5's bm25() adds a column's weight per occurrence), lengths. A cursor looking up one
 * chunk decodes half a block on average instead of all of it.
 *
 * @example
 * const block = newDecodedBlock();
 * decodeUntil(bytes, bytes.length, weights, block, 812); // block.ids[block.count - 1] >= 812, unless the block ended
 */
export function decodeUntil(bytes: Uint8Array, end: number, weights: ArrayLike<number>, into: DecodedBlock, until: number): DecodedBlock {
  const { ids, frequencies, lengths } = into;
  let at = into.end;
  let id = into.lastId;
  let count = into.count;
  // Varints inline, with a fast path for one byte (most gaps, counts and lengths): the hottest
  // loop of a search; through VarintReader it measured 10-20% slower at 1M chunks.
  while (at < end) {
    let byte = bytes[at++]!;
    let value = byte;
    if (byte >= 0x80) {
      value = byte & 0x7f;
      let scale = 0x80;
      do {
        byte = bytes[at++]!;
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
      } while (byte >= 0x80);
    }
    id += value;
    let frequency = 0;
    // The columns holding the term, lowest first (most postings have one: the body).
    for (let mask = bytes[at++]!; mask !== 0; mask &= mask - 1) {
      const column = 31 - Math.clz32(mask & -mask);
      byte = bytes[at++]!;
      value = byte;
      if (byte >= 0x80) {
        value = byte & 0x7f;
        let scale = 0x80;
        do {
          byte = bytes[at++]!;
          value += (byte & 0x7f) * scale;
          scale *= 0x80;
        } while (byte >= 0x80);
      }
      frequency += weights[column]! * value;
    }
    byte = bytes[at++]!;
    value = byte;
    if (byte >= 0x80) {
      value = byte & 0x7f;
      let scale = 0x80;
      do {
        byte = bytes[at++]!;
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
      } while (byte >= 0x80);
    }
    ids[count] = id;
    frequencies[count] = frequency;
    lengths[count] = value;
    count += 1;
    if (id >= until) break;
  }
  into.count = count;
  into.end = at;
  into.lastId = id;
  return into;
}

/**
 * Reads varints from `bytes` at `at` (which it moves on); a class so that the hot loops that
 * use it allocate nothing per value. `bytes` and `at` may be set to read elsewhere.
 *
 * @example
 * const reader = new VarintReader(bytes);
 * const first = reader.read();
 */
export class VarintReader {
  at = 0;

  constructor(public bytes: Uint8Array = new Uint8Array(0)) {}

  read(): number {
    const bytes = this.bytes;
    let byte = bytes[this.at++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    do {
      byte = bytes[this.at++]!;
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte >= 0x80);
    return value;
  }

  /** Past one varint, without computing it. */
  skip(): void {
    while (this.bytes[this.at++]! >= 0x80);
  }
}

/**
 * The postings of a block as {@link Posting}s (for rewriting a block: appends, deletes).
 *
 * @example
 * readPostings(bytes).map((posting) => posting.id);
 */
export function readPostings(bytes: Uint8Array): Posting[] {
  const postings: Posting[] = [];
  const reader = new VarintReader(bytes);
  let id = 0;
  while (reader.at < bytes.length) {
    id += reader.read();
    const mask = bytes[reader.at++]!;
    const counts = new Array<number>(COLUMN_COUNT).fill(0);
    for (let column = 0; column < COLUMN_COUNT; column += 1) if (mask & (1 << column)) counts[column] = reader.read();
    postings.push({ id, counts, length: reader.read() });
  }
  return postings;
}

/**
 * A new {@link DecodedBlock} to decode into.
 *
 * @example
 * const block = newDecodedBlock();
 */
export function newDecodedBlock(): DecodedBlock {
  return { count: 0, ids: new Int32Array(BLOCK_SIZE), frequencies: new Float64Array(BLOCK_SIZE), lengths: new Int32Array(BLOCK_SIZE), end: 0, lastId: 0 };
}
