import { describe, expect, it } from 'vitest';
import { ByteWriter, readPostings } from './postings-codec.ts';
import { repacked, withoutIds } from './postings-blocks.ts';

const posting = (id: number, body: number, length: number) => ({ id, counts: [0, 0, 0, body, 0], length });
const block = (postings: ReturnType<typeof posting>[]) => repacked([{ bytes: new Uint8Array(0), postings }])[0]!.bytes;

describe('withoutIds', () => {
  const stored = block([posting(3, 1, 40), posting(5, 2, 12), posting(900, 1, 7), posting(901, 4, 300), posting(1000, 1, 25)]);

  it('drops the given ids, writes the gap after each dropped one again, and summarises what is left', () => {
    const out = new ByteWriter();
    const left = withoutIds(stored, new Set([3, 900, 1000]), out);
    expect(readPostings(out.take())).toEqual([posting(5, 2, 12), posting(901, 4, 300)]);
    expect(left).toEqual({ key: 0, offset: 0, length: out.length, lastId: 901, count: 2, minLength: 12, maxCounts: [0, 0, 0, 4, 0] });
  });

  it('copies the block as it is when no id of it is dropped, and leaves nothing when all are', () => {
    const out = new ByteWriter();
    expect(withoutIds(stored, new Set([4, 2000]), out).count).toBe(5);
    expect(out.take()).toEqual(stored);
    expect(withoutIds(stored, new Set([3, 5, 900, 901, 1000]), out)).toMatchObject({ count: 0, length: 0 });
  });
});
