import { describe, expect, it } from 'vitest';
import { putVarint, VarintReader } from './postings-codec.ts';

describe('putVarint', () => {
  it('writes base-128 little-endian bytes on both sides of 2^31 and up to 2^53', () => {
    const cases: Array<[number, number[]]> = [
      [0, [0x00]],
      [127, [0x7f]],
      [300, [0xac, 0x02]],
      [2 ** 31 - 1, [0xff, 0xff, 0xff, 0xff, 0x07]],
      [2 ** 31, [0x80, 0x80, 0x80, 0x80, 0x08]],
      [2 ** 32 + 5, [0x85, 0x80, 0x80, 0x80, 0x10]],
      [2 ** 53 - 1, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]],
    ];
    for (const [value, expected] of cases) {
      const bytes = new Uint8Array(8);
      const end = putVarint(bytes, 0, value);
      expect([...bytes.subarray(0, end)]).toEqual(expected);
      const reader = new VarintReader(bytes);
      expect(reader.read()).toBe(value);
      expect(reader.at).toBe(end);
    }
  });
});
