import { describe, expect, it } from 'vitest';
import { foldedHash } from '../analysis/fts5-tokens.ts';
import { SpanNumbers } from './span-numbers.ts';

describe('SpanNumbers', () => {
  it('finds a token by its characters in a text, upper-case read as lower-case when told', () => {
    const numbers = new SpanNumbers();
    numbers.insert('retries', foldedHash('retries'), 7);
    numbers.insert('back', foldedHash('back'), 0);
    const text = 'Retries back off, RETRIES retried';
    expect(numbers.find(text, 0, 7, foldedHash('retries'), true)).toBe(7);
    expect(numbers.find(text, 18, 25, foldedHash('retries'), true)).toBe(7);
    // Without `upper`, "Retries" is not "retries".
    expect(numbers.find(text, 0, 7, foldedHash('retries'), false)).toBe(-1);
    expect(numbers.find(text, 8, 12, foldedHash('back'), false)).toBe(0);
    expect(numbers.find(text, 13, 16, foldedHash('off'), false)).toBe(-1);
    // A prefix with the same hash is not the token.
    expect(numbers.find(text, 26, 33, foldedHash('retries'), false)).toBe(-1);
    expect(numbers.size).toBe(2);
  });

  it('keeps every token through growth, tells apart tokens whose hashes collide, and clears', () => {
    const numbers = new SpanNumbers(16);
    const tokens = Array.from({ length: 5000 }, (_, n) => `t${n.toString(36)}`);
    tokens.forEach((token, n) => numbers.insert(token, foldedHash(token), n));
    const text = tokens.join(' ');
    let at = 0;
    const found = tokens.map((token) => {
      const number = numbers.find(text, at, at + token.length, foldedHash(token), false);
      at += token.length + 1;
      return number;
    });
    expect(found).toEqual(tokens.map((_, n) => n));
    // Every token under one hash: told apart by their characters.
    const colliding = new SpanNumbers(16);
    ['ab', 'ba', 'abc', 'b'].forEach((token, n) => colliding.insert(token, 42, n));
    expect(['ab', 'ba', 'abc', 'b', 'a'].map((token) => colliding.find(token, 0, token.length, 42, false))).toEqual([0, 1, 2, 3, -1]);
    colliding.clear();
    expect(colliding.size).toBe(0);
    expect(colliding.find('ab', 0, 2, 42, false)).toBe(-1);
  });
});
