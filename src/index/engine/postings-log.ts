import type { ChunkTerms } from './chunk-terms.ts';
import { BLOCK_SIZE, ByteWriter, COLUMN_COUNT, putVarint } from './postings-codec.ts';
import type { BlockSummary } from './postings-skips.ts';

/** Buckets of the log: a term's records go to bucket `term index % LOG_BUCKETS`. */
const LOG_BUCKET_BITS = 6;
const LOG_BUCKETS = 1 << LOG_BUCKET_BITS;
/** Bytes of one segment of a bucket (a power of two: a record's place is segment << bits | offset). */
const SEGMENT_BITS = 16;
const SEGMENT_BYTES = 1 << SEGMENT_BITS;
/** Most bytes one posting's record takes: varints of term index, id and counts, and the mask. */
const MAX_RECORD_BYTES = 8 + 8 + 1 + COLUMN_COUNT * 5;

/**
 * The additions a postings writer collected, as one record per posting (term index / buckets,
 * id less the bucket's previous one, column mask, counts, as varints) in arrival order, i.e. by
 * id; each chunk's length once, beside its id. Records are spread over
 * {@link LOG_BUCKETS} buckets by term, each a list of 64 KB segments: appends are sequential
 * writes, the log never copies itself to grow, and grouping a bucket's records by term when
 * drained reads within a few MB (cache-friendly) instead of across the whole log.
 */
export interface PostingsLog {
  /** Bytes of segments held. */
  readonly size: number;
  /** Appends the postings of chunk `id`: its terms' writer indexes are `indexes[terms.ids[n]]`. */
  appendChunk(id: number, indexes: readonly number[], terms: ChunkTerms): void;
  /**
   * Each term's records encoded as blocks (postings-codec.ts) into `out` (emptied per term),
   * term by term, then empties the log. `postingsPerTerm[t]` must count term t's records; terms
   * without any are not visited. The summaries' offsets are into `out.bytes`, their keys 0.
   */
  drain(postingsPerTerm: readonly number[], out: ByteWriter, visit: (term: number, blocks: BlockSummary[]) => void): void;
}

/**
 * An empty {@link PostingsLog}.
 *
 * @example
 * const log = createPostingsLog();
 * log.appendChunk(1, [0, 1], { ids: new Uint32Array([1]), counts: new Uint32Array([0, 0, 0, 2, 0]), length: 2 });
 * log.drain([0, 1], new ByteWriter(), (term, blocks) => blocks[0]!.count); // term 1, one posting
 */
export function createPostingsLog(): PostingsLog {
  let segments: Uint8Array[][] = [];
  // Per bucket, the bytes used of each of its segments but the last (whose use is `fill`).
  let ends: number[][] = [];
  let fill = new Int32Array(LOG_BUCKETS);
  // Per bucket, the id of its last record: a record holds its id as the difference from it.
  let lastIds = new Float64Array(LOG_BUCKETS);
  // The chunks appended, in id order: their ids and lengths (chunkCount of them).
  let chunkIds = new Float64Array(1024);
  let chunkLengths = new Uint32Array(1024);
  let chunkCount = 0;
  let size = 0;
  const reset = () => {
    lastIds = new Float64Array(LOG_BUCKETS);
    chunkIds = new Float64Array(1024);
    chunkLengths = new Uint32Array(1024);
    chunkCount = 0;
    segments = Array.from({ length: LOG_BUCKETS }, () => []);
    ends = Array.from({ length: LOG_BUCKETS }, () => []);
    fill = new Int32Array(LOG_BUCKETS).fill(SEGMENT_BYTES);
    size = 0;
  };
  reset();

  return {
    get size() {
      return size;
    },
    appendChunk(id, indexes, terms) {
      const { ids, counts, length } = terms;
      if (ids.length === 0) return;
      if (chunkCount === chunkIds.length) {
        const grownIds = new Float64Array(chunkCount * 2);
        grownIds.set(chunkIds);
        chunkIds = grownIds;
        const grownLengths = new Uint32Array(chunkCount * 2);
        grownLengths.set(chunkLengths);
        chunkLengths = grownLengths;
      }
      chunkIds[chunkCount] = id;
      chunkLengths[chunkCount] = length;
      chunkCount += 1;
      for (let n = 0; n < ids.length; n += 1) {
        const index = indexes[ids[n]!]!;
        const bucket = index & (LOG_BUCKETS - 1);
        const list = segments[bucket]!;
        let at = fill[bucket]!;
        if (at + MAX_RECORD_BYTES > SEGMENT_BYTES) {
          if (list.length > 0) ends[bucket]!.push(at);
          list.push(new Uint8Array(SEGMENT_BYTES));
          size += SEGMENT_BYTES;
          at = 0;
        }
        const bytes = list[list.length - 1]!;
        at = putVarint(bytes, at, index >>> LOG_BUCKET_BITS);
        at = putVarint(bytes, at, id - lastIds[bucket]!);
        lastIds[bucket] = id;
        const base = n * COLUMN_COUNT;
        // The mask's byte first, filled in once the counts after it are written.
        const maskAt = at++;
        let mask = 0;
        for (let column = 0; column < COLUMN_COUNT; column += 1) {
          const count = counts[base + column]!;
          if (count === 0) continue;
          mask |= 1 << column;
          at = putVarint(bytes, at, count);
        }
        bytes[maskAt] = mask;
        fill[bucket] = at;
      }
    },
    drain(postingsPerTerm, out, visit) {
      // Each chunk's length by id when the ids are dense (as an ingest's new rowids are): then a
      // record's length is read from it by id, not carried along in the sort below.
      const base = chunkCount === 0 ? 0 : chunkIds[0]!;
      const span = chunkCount === 0 ? 0 : chunkIds[chunkCount - 1]! - base + 1;
      let lengthById: Uint32Array | undefined;
      if (span <= 2 * chunkCount + 1024) {
        lengthById = new Uint32Array(span);
        for (let n = 0; n < chunkCount; n += 1) lengthById[chunkIds[n]! - base] = chunkLengths[n]!;
      }
      for (let bucket = 0; bucket < LOG_BUCKETS; bucket += 1) {
        const list = segments[bucket]!;
        if (list.length === 0) continue;
        // A counting sort of the bucket's records by term (local number: index / LOG_BUCKETS).
        const terms = Math.ceil((postingsPerTerm.length - bucket) / LOG_BUCKETS);
        const first = new Uint32Array(terms + 1);
        for (let local = 0; local < terms; local += 1) first[local + 1] = first[local]! + postingsPerTerm[local * LOG_BUCKETS + bucket]!;
        const order = new Uint32Array(first[terms]!);
        const ids = new Float64Array(first[terms]!);
        const lengths = lengthById ?? new Uint32Array(first[terms]!);
        const next = first.slice(0, terms);
        let id = 0;
        // The bucket's ids increase: without lengthById, its records' chunks are found by walking the chunks once.
        let chunk = 0;
        for (let segment = 0; segment < list.length; segment += 1) {
          const bytes = list[segment]!;
          const end = segment === list.length - 1 ? fill[bucket]! : ends[bucket]![segment]!;
          let at = 0;
          while (at < end) {
            // The record's term and id delta (varints read here, the loop that reads every record).
            let byte = bytes[at++]!;
            let local = byte & 0x7f;
            for (let scale = 0x80; byte >= 0x80; scale *= 0x80) local += ((byte = bytes[at++]!) & 0x7f) * scale;
            byte = bytes[at++]!;
            let delta = byte & 0x7f;
            for (let scale = 0x80; byte >= 0x80; scale *= 0x80) delta += ((byte = bytes[at++]!) & 0x7f) * scale;
            id += delta;
            const position = next[local]!++;
            // Where the record's mask is: its term and id are not read again.
            order[position] = (segment << SEGMENT_BITS) | at;
            ids[position] = id;
            if (lengthById === undefined) {
              while (chunkIds[chunk]! < id) chunk += 1;
              lengths[position] = chunkLengths[chunk]!;
            }
            // Past the mask and the counts.
            for (let bits = bytes[at++]!; bits !== 0; bits &= bits - 1) while (bytes[at++]! >= 0x80);
          }
        }
        for (let local = 0; local < terms; local += 1) {
          if (first[local + 1] === first[local]) continue;
          out.length = 0;
          visit(local * LOG_BUCKETS + bucket, blocksOfRecords(list, order, ids, lengths, lengthById === undefined ? -1 : base, first[local]!, first[local + 1]!, out));
        }
        segments[bucket] = [];
      }
      reset();
    },
  };
}

/**
 * One term's records (the places of their masks, `order[from..to)` in `segments`, ids at the
 * same positions) encoded as blocks appended to `out`: their summaries. A record's chunk length
 * is `lengths[id - lengthBase]`, or with `lengthBase` -1 at the record's position.
 */
function blocksOfRecords(
  segments: readonly Uint8Array[],
  order: Uint32Array,
  ids: Float64Array,
  lengths: Uint32Array,
  lengthBase: number,
  from: number,
  to: number,
  out: ByteWriter,
): BlockSummary[] {
  const blocks: BlockSummary[] = [];
  // Written straight into the reserved buffer: the bound covers every record's varints.
  out.reserve((to - from) * MAX_RECORD_BYTES);
  const bytes = out.bytes;
  let at = out.length;
  let blockStart = at;
  let inBlock = 0;
  let previous = 0;
  let minLength = Infinity;
  const maxCounts = new Array<number>(COLUMN_COUNT).fill(0);
  const finish = () => {
    blocks.push({ key: 0, offset: blockStart, length: at - blockStart, lastId: previous, count: inBlock, minLength, maxCounts: [...maxCounts] });
    blockStart = at;
    inBlock = 0;
    minLength = Infinity;
    maxCounts.fill(0);
  };
  for (let n = from; n < to; n += 1) {
    const place = order[n]!;
    const record = segments[place >>> SEGMENT_BITS]!;
    let read = place & (SEGMENT_BYTES - 1);
    const id = ids[n]!;
    at = putVarint(bytes, at, inBlock === 0 ? id : id - previous);
    // The mask and the counts are stored as the log holds them: copied, the counts read for the bounds.
    const mask = record[read++]!;
    bytes[at++] = mask;
    for (let bits = mask; bits !== 0; bits &= bits - 1) {
      const column = 31 - Math.clz32(bits & -bits);
      let byte = record[read++]!;
      bytes[at++] = byte;
      let count = byte & 0x7f;
      for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
        byte = record[read++]!;
        bytes[at++] = byte;
        count += (byte & 0x7f) * scale;
      }
      if (count > maxCounts[column]!) maxCounts[column] = count;
    }
    const length = lengthBase < 0 ? lengths[n]! : lengths[id - lengthBase]!;
    at = putVarint(bytes, at, length);
    if (length < minLength) minLength = length;
    previous = id;
    inBlock += 1;
    if (inBlock === BLOCK_SIZE) finish();
  }
  out.length = at;
  if (inBlock > 0) finish();
  return blocks;
}
