import { describe, expect, it } from 'vitest';
import { ABSENT_TERM_BYTES, createRowCache, MAX_ROW_CACHE_BYTES, ROW_CACHE_BYTES, rowCacheBytesFor } from './postings-row-cache.ts';
import type { PostingsReader, StoredTerm } from './postings-store.ts';

/** A reader over rows of `bytes` bytes each (term t, keys 0..rowsPerTerm-1; byte 0 = key, byte 1 = term), counting the rows it reads. */
function countingReader(rowsPerTerm: number, bytes: number) {
  const read: string[] = [];
  const row = (termId: number, key: number) => {
    const data = new Uint8Array(bytes);
    data[0] = key;
    data[1] = termId;
    return data;
  };
  const reader: PostingsReader = {
    totals: () => ({ chunks: 0, tokens: 0 }),
    terms: () => new Map(),
    logs: () => [],
    rows(termId, fromKey, limit) {
      const out: Array<[number, Uint8Array]> = [];
      for (let key = fromKey; key < rowsPerTerm && out.length < limit; key += 1) {
        read.push(`${termId}:${key}`);
        out.push([key, row(termId, key)]);
      }
      return out;
    },
  };
  return { reader, read };
}

/** A cache of at most `maxBytes` over a {@link countingReader}, in use for version v1. */
function cachedReader(rowsPerTerm: number, bytes: number, maxBytes: number) {
  const { reader, read } = countingReader(rowsPerTerm, bytes);
  const cache = createRowCache(maxBytes);
  cache.use('v1');
  return { cache, cached: cache.reading(reader), read };
}

const keysOf = (rows: Array<[number, Uint8Array]>) => rows.map(([key, data]) => [key, data[0], data[1], data.length]);

describe('createRowCache', () => {
  it('serves rows it read before, the same bytes, until the data version changes', () => {
    const { cache, cached, read } = cachedReader(4, 100, 10_000);
    expect(keysOf(cached.rows(7, 0, 2))).toEqual([[0, 0, 7, 100], [1, 1, 7, 100]]);
    expect(read).toEqual(['7:0', '7:1']);
    // Kept: served without reading, as far as the kept keys follow one another (and the limit).
    expect(keysOf(cached.rows(7, 0, 4))).toEqual([[0, 0, 7, 100], [1, 1, 7, 100]]);
    expect(keysOf(cached.rows(7, 1, 1))).toEqual([[1, 1, 7, 100]]);
    expect(read).toEqual(['7:0', '7:1']);
    // Not kept yet: read (and kept from then on).
    expect(keysOf(cached.rows(7, 2, 4))).toEqual([[2, 2, 7, 100], [3, 3, 7, 100]]);
    expect(keysOf(cached.rows(7, 0, 4))).toEqual([[0, 0, 7, 100], [1, 1, 7, 100], [2, 2, 7, 100], [3, 3, 7, 100]]);
    expect(read).toEqual(['7:0', '7:1', '7:2', '7:3']);
    expect(cache.bytes).toBe(400);
    // The same version again keeps them; another one drops them.
    cache.use('v1');
    cached.rows(7, 0, 1);
    expect(read.length).toBe(4);
    cache.use('v2');
    expect(cache.bytes).toBe(0);
    expect(keysOf(cached.rows(7, 0, 1))).toEqual([[0, 0, 7, 100]]);
    expect(read).toEqual(['7:0', '7:1', '7:2', '7:3', '7:0']);
  });

  it('keeps the first rows read up to its size, and reads the others every time', () => {
    const { cache, cached, read } = cachedReader(10, 100, 250);
    cached.rows(1, 0, 3);
    expect(cache.bytes).toBe(200);
    // Rows 0 and 1 kept (served up to the first row not kept); row 2 did not fit, so it is read every time.
    expect(keysOf(cached.rows(1, 0, 3))).toEqual([[0, 0, 1, 100], [1, 1, 1, 100]]);
    expect(read).toEqual(['1:0', '1:1', '1:2']);
    expect(keysOf(cached.rows(1, 2, 1))).toEqual([[2, 2, 1, 100]]);
    expect(keysOf(cached.rows(1, 2, 1))).toEqual([[2, 2, 1, 100]]);
    expect(read).toEqual(['1:0', '1:1', '1:2', '1:2', '1:2']);
    expect(cache.bytes).toBe(200);
  });

  it('copies what it keeps: a row handed out stays as read while more are kept', () => {
    const { cached } = cachedReader(200, 1_000, 1_000_000);
    const first = cached.rows(3, 0, 1);
    const again = cached.rows(3, 0, 1);
    for (let key = 1; key < 200; key += 1) cached.rows(3, key, 1);
    expect(keysOf(again)).toEqual([[0, 0, 3, 1_000]]);
    expect([...again[0]![1]]).toEqual([...first[0]![1]]);
    expect(keysOf(cached.rows(3, 150, 2))).toEqual([[150, 150, 3, 1_000], [151, 151, 3, 1_000]]);
  });

  it('keeps the rows of the next version in the room of the last one', () => {
    const { cache, cached, read } = cachedReader(30, 100, 2_000);
    cached.rows(1, 0, 20);
    expect(cache.bytes).toBe(2_000);
    cache.use('v2');
    // Term 2's rows now, in the same 2,000 bytes; term 1's are read again.
    expect(keysOf(cached.rows(2, 0, 20)).every(([key, first, term]) => first === key && term === 2)).toBe(true);
    expect(keysOf(cached.rows(2, 5, 3))).toEqual([[5, 5, 2, 100], [6, 6, 2, 100], [7, 7, 2, 100]]);
    expect(cache.bytes).toBe(2_000);
    const before = read.length;
    expect(keysOf(cached.rows(1, 0, 1))).toEqual([[0, 0, 1, 100]]);
    expect(read.length).toBe(before + 1);
  });

  it('holds the size the next version asks for, larger or smaller', () => {
    const { cache, cached } = cachedReader(40, 100, 1_000);
    cached.rows(1, 0, 40);
    expect(cache.bytes).toBe(1_000);
    cache.use('v2', 3_000);
    cached.rows(1, 0, 40);
    expect(cache.bytes).toBe(3_000);
    // The same version keeps its size, whatever is asked.
    cache.use('v2', 500);
    expect(cache.bytes).toBe(3_000);
    cache.use('v3', 500);
    cached.rows(1, 0, 40);
    expect(cache.bytes).toBe(500);
    expect(keysOf(cached.rows(1, 0, 40)).map(([key]) => key)).toEqual([0, 1, 2, 3, 4]);
  });

  it('sizes the cache of an index at an eighth of its file, between 32 and 256 MB', () => {
    expect(rowCacheBytesFor(14.5e6)).toBe(ROW_CACHE_BYTES);
    expect(rowCacheBytesFor(256 * 1024 * 1024)).toBe(ROW_CACHE_BYTES);
    expect(rowCacheBytesFor(1.351e9)).toBe(168_875_000);
    expect(rowCacheBytesFor(4e9)).toBe(MAX_ROW_CACHE_BYTES);
  });

  it('serves the terms it looked up, held or not, until the data version changes, within an eighth of its bytes', () => {
    const looked: string[][] = [];
    // Terms whose name starts with 'x' are not in the store; the others have a skip entry of 4 words per letter.
    const stored = (term: string): StoredTerm => ({ id: term.length, df: 1, skips: new Uint32Array(4 * term.length) });
    const reader: PostingsReader = {
      totals: () => ({ chunks: 0, tokens: 0 }),
      logs: () => [],
      rows: () => [],
      terms(wanted) {
        looked.push([...wanted]);
        return new Map(wanted.filter((term) => !term.startsWith('x')).map((term) => [term, stored(term)]));
      },
    };
    const cache = createRowCache(8 * (16 * 3 + ABSENT_TERM_BYTES + 16 * 4));
    cache.use('v1');
    const cached = cache.reading(reader);
    const found = (wanted: string[]) => [...cached.terms(wanted)].map(([term, { id, skips }]) => [term, id, skips.length]);
    expect(found(['job', 'xyz'])).toEqual([['job', 3, 12]]);
    expect(cache.bytes).toBe(16 * 3 + ABSENT_TERM_BYTES);
    // Both served from the cache (the one absent too), only the new one looked up.
    expect(found(['xyz', 'job', 'cron'])).toEqual([['job', 3, 12], ['cron', 4, 16]]);
    expect(looked).toEqual([['job', 'xyz'], ['cron']]);
    expect(cache.bytes).toBe(16 * 3 + ABSENT_TERM_BYTES + 16 * 4);
    // Full: a new term is found but looked up every time.
    expect(found(['queue'])).toEqual([['queue', 5, 20]]);
    expect(found(['queue', 'job'])).toEqual([['job', 3, 12], ['queue', 5, 20]]);
    expect(looked).toEqual([['job', 'xyz'], ['cron'], ['queue'], ['queue']]);
    // Another version looks every term up again.
    cache.use('v2');
    expect(cache.bytes).toBe(0);
    expect(found(['job'])).toEqual([['job', 3, 12]]);
    expect(looked.at(-1)).toEqual(['job']);
  });
});
