import { describe, expect, it } from 'vitest';
import { BLOCK_SIZE, ByteWriter, readPostings } from './postings-codec.ts';
import { createPostingsLog } from './postings-log.ts';

/** Every term's postings as drained from `log`: term -> [id, counts, length] in block order, and each block's summary. */
function drained(log: ReturnType<typeof createPostingsLog>, postingsPerTerm: number[]) {
  const out = new ByteWriter();
  const terms = new Map<number, { postings: Array<[number, number[], number]>; blocks: Array<{ count: number; lastId: number; minLength: number; maxCounts: number[] }> }>();
  log.drain(postingsPerTerm, out, (term, blocks) => {
    const postings = blocks.flatMap((block) =>
      readPostings(out.bytes.subarray(block.offset, block.offset + block.length)).map((posting): [number, number[], number] => [posting.id, Array.from(posting.counts), posting.length]),
    );
    terms.set(term, { postings, blocks: blocks.map(({ count, lastId, minLength, maxCounts }) => ({ count, lastId, minLength, maxCounts })) });
  });
  return terms;
}

describe('createPostingsLog', () => {
  it('gives each term its postings in id order, with block summaries', () => {
    const log = createPostingsLog();
    const counts = (...values: number[]) => new Uint32Array(values);
    // Dictionary numbers 0, 1, 2 are writer term indexes 5, 69 (same bucket as 5) and 0.
    const indexes = [5, 69, 0];
    log.appendChunk(3, indexes, { ids: new Uint32Array([0, 1]), counts: counts(1, 0, 0, 2, 0, 0, 0, 0, 1, 300), length: 7 });
    log.appendChunk(9, indexes, { ids: new Uint32Array([2, 0]), counts: counts(0, 0, 0, 1, 0, 0, 1, 0, 0, 0), length: 2 });
    const perTerm = new Array<number>(70).fill(0);
    perTerm[5] = 2;
    perTerm[69] = 1;
    perTerm[0] = 1;
    // Two buckets (0, and 5 for 5 and 69), a 64 KB segment each.
    expect(log.size).toBe(2 * 65536);
    const terms = drained(log, perTerm);
    expect([...terms.keys()]).toEqual([0, 5, 69]);
    expect(terms.get(5)).toEqual({
      postings: [
        [3, [1, 0, 0, 2, 0], 7],
        [9, [0, 1, 0, 0, 0], 2],
      ],
      blocks: [{ count: 2, lastId: 9, minLength: 2, maxCounts: [1, 1, 0, 2, 0] }],
    });
    expect(terms.get(69)!.postings).toEqual([[3, [0, 0, 0, 1, 300], 7]]);
    expect(terms.get(0)!.postings).toEqual([[9, [0, 0, 0, 1, 0], 2]]);
    // Drained: empty again.
    expect(log.size).toBe(0);
    expect(drained(log, perTerm).size).toBe(0);
  });

  it('keeps every record across segments and blocks, large ids included', () => {
    const log = createPostingsLog();
    const chunks = 20_000;
    const base = 2 ** 40;
    for (let n = 0; n < chunks; n += 1) {
      log.appendChunk(base + n, [7], { ids: new Uint32Array([0]), counts: new Uint32Array([0, 0, 0, 1 + (n % 200), 0]), length: 10 + (n % 3) });
    }
    const perTerm = new Array<number>(8).fill(0);
    perTerm[7] = chunks;
    expect(log.size).toBeGreaterThan(65536);
    const term = drained(log, perTerm).get(7)!;
    expect(term.postings.length).toBe(chunks);
    expect(term.postings.every(([id, counts, length], n) => id === base + n && counts[3] === 1 + (n % 200) && length === 10 + (n % 3))).toBe(true);
    expect(term.blocks.length).toBe(Math.ceil(chunks / BLOCK_SIZE));
    expect(term.blocks[0]).toEqual({ count: BLOCK_SIZE, lastId: base + BLOCK_SIZE - 1, minLength: 10, maxCounts: [0, 0, 0, Math.min(BLOCK_SIZE, 200), 0] });
  });

  it('gives each posting its chunk length when the chunk ids are far apart', () => {
    const log = createPostingsLog();
    // 3,000 chunks 5,000 ids apart (no dense table of lengths by id): term 1 in every chunk, term 2 in every third.
    const chunks = 3_000;
    for (let n = 0; n < chunks; n += 1) {
      const ids = n % 3 === 0 ? [0, 1] : [0];
      const counts = n % 3 === 0 ? [0, 0, 0, 1, 0, 0, 2, 0, 0, 0] : [0, 0, 0, 1, 0];
      log.appendChunk(1 + n * 5_000, [1, 2], { ids: new Uint32Array(ids), counts: new Uint32Array(counts), length: 20 + (n % 7) });
    }
    const perTerm = [0, chunks, chunks / 3];
    const terms = drained(log, perTerm);
    expect(terms.get(1)!.postings.every(([id, , length], n) => id === 1 + n * 5_000 && length === 20 + (n % 7))).toBe(true);
    const every3 = terms.get(2)!.postings;
    expect(every3.length).toBe(chunks / 3);
    expect(every3.every(([id, counts, length], n) => id === 1 + 3 * n * 5_000 && counts[1] === 2 && length === 20 + ((3 * n) % 7))).toBe(true);
  });
});
