import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from './hash-embedder.ts';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index]!, 0);

describe('createHashEmbedder', () => {
  it('is deterministic, of the asked dimensions, and of unit length', async () => {
    const embedder = createHashEmbedder({ dimensions: 64 });
    expect(embedder.model).toBe('hash:64');
    const [first, again] = await embedder.embed(['Lease timeout', 'Lease timeout']);
    expect(first).toHaveLength(64);
    expect(first).toEqual(again);
    expect(cosine(first!, first!)).toBeCloseTo(1, 9);
  });

  it('puts texts sharing words and word parts closer than unrelated ones', async () => {
    const [query, near, far] = await createHashEmbedder({ dimensions: 256 }).embed(['leases expire', 'a lease expires after 30 s', 'payload size limits']);
    expect(cosine(query!, near!)).toBeGreaterThan(0.3);
    expect(cosine(query!, far!)).toBeLessThan(0.2);
  });

  it('gives a text without words the zero vector (which no search matches)', async () => {
    expect(await createHashEmbedder({ dimensions: 4 }).embed(['  --  '])).toEqual([[0, 0, 0, 0]]);
  });

  it('refuses dimensions out of range', () => {
    expect(() => createHashEmbedder({ dimensions: 1 })).toThrow("Atlas: the hash embedder's dimensions must be an integer from 2 to 8192, got 1. Use e.g. hash:256.");
  });
});
