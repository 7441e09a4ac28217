import { describe, expect, it } from 'vitest';
import { MarkedPositions, WINDOW } from './postings-scratch.ts';

/** Marks with a bit set at each of `positions`. */
function marksAt(positions: readonly number[]): Int32Array {
  const marks = new Int32Array(WINDOW / 32);
  for (const at of positions) marks[at >>> 5] = marks[at >>> 5]! | (1 << (at & 31));
  return marks;
}

function taken(marked: MarkedPositions): number[] {
  const out: number[] = [];
  for (let at = marked.next(); at >= 0; at = marked.next()) out.push(at);
  return out;
}

describe('MarkedPositions', () => {
  it('takes the marked positions in increasing order, the sign bit of a word included, and leaves the marks zeroed', () => {
    const marks = marksAt([2047, 0, 31, 32, 33, 63, 64, 1000, 5]);
    const marked = new MarkedPositions(marks);
    marked.start(WINDOW);
    expect(taken(marked)).toEqual([0, 5, 31, 32, 33, 63, 64, 1000, 2047]);
    expect(marks.every((word) => word === 0)).toBe(true);
    // Spent until started again.
    expect(marked.next()).toBe(-1);
  });

  it('reads only the words of the window it was started on', () => {
    const marks = marksAt([3, 40, 95, 96]);
    const marked = new MarkedPositions(marks);
    marked.start(96);
    expect(taken(marked)).toEqual([3, 40, 95]);
    // The word past the span is left as it was; the next window takes it.
    expect(marks[3]).toBe(1);
    marked.start(97);
    expect(taken(marked)).toEqual([96]);
    marked.start(WINDOW);
    expect(taken(marked)).toEqual([]);
  });
});
