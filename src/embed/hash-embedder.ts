import { AtlasError } from '../errors.ts';
import type { Embedder } from './types.ts';

/** Options of {@link createHashEmbedder}. */
export interface HashEmbedderOptions {
  /** Length of every vector (default 256). */
  dimensions?: number;
}

/** Default dimensions of the hash embedder. */
export const DEFAULT_HASH_DIMENSIONS = 256;

/**
 * A deterministic embedder with no model and no network: every word and every character 3-gram of
 * a word (with `#` marking the word's ends) is hashed (FNV-1a) to one of `dimensions` slots with a
 * hashed sign, counted (words weigh 2, 3-grams 1, each with `1 + ln(count)`), and the vector is
 * scaled to unit length. Texts that share words and word parts get close vectors; it knows no
 * meaning (no synonyms, no paraphrase), so it is a plumbing check and a test double, never a
 * measure of what a real embedding model achieves. Spec: `hash:<dimensions>`.
 *
 * @example
 * const embedder = createHashEmbedder({ dimensions: 64 });
 * const [a, b] = await embedder.embed(['lease timeout', 'leases time out']);
 */
export function createHashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? DEFAULT_HASH_DIMENSIONS;
  if (!Number.isInteger(dimensions) || dimensions < 2 || dimensions > 8192) {
    throw new AtlasError('usage', `Atlas: the hash embedder's dimensions must be an integer from 2 to 8192, got ${dimensions}. Use e.g. hash:256.`);
  }
  return {
    model: `hash:${dimensions}`,
    maxBatch: 512,
    async embed(texts: string[]): Promise<number[][]> {
      return texts.map((text) => hashVector(text, dimensions));
    },
  };
}

/** The unit-length vector of `text` (all zeros for a text with no word). */
function hashVector(text: string, dimensions: number): number[] {
  const counts = new Map<string, number>();
  const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    add(`w:${word}`, 2);
    const marked = `#${word}#`;
    for (let start = 0; start + 3 <= marked.length; start += 1) add(`g:${marked.slice(start, start + 3)}`, 1);
  }
  const vector = new Array<number>(dimensions).fill(0);
  for (const [feature, count] of counts) {
    const hash = fnv1a(feature);
    const sign = (hash & 0x80000000) === 0 ? 1 : -1;
    const slot = hash % dimensions;
    vector[slot] = (vector[slot] ?? 0) + sign * (1 + Math.log(count));
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** 32-bit FNV-1a of the UTF-16 code units, unsigned. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
