import { describe, expect, it } from 'vitest';
import { lineMatches } from './section-matches.ts';

const table = [
  '| Code | Meaning |',
  '| --- | --- |',
  '| ORB-1 | ok |',
  '| ORB-2 | payload too large |',
  '| ORB-3 | lease lost |',
  '| ORB-4 | payload rejected by lease |',
].join('\n');

describe('lineMatches', () => {
  it('ranks lines by the rarity of the query terms they hold, keeping those near the best', () => {
    // "orb" is on 4 of 6 lines (more than half: weight 0), "payload" and "lease" on 2 (ln 3), "too" and
    // "large" on 1 (ln 6): ORB-2 scores 4.68, ORB-4 1.10 (under half of 4.68), the other ORB rows 0.
    expect(lineMatches(table, 'What does ORB payload too large mean?', { shown: [] })).toEqual([
      { offset: 48, terms: ['orb', 'payload', 'too', 'large'] },
    ]);
    // ORB-4 scores 2 ln 3 (payload + lease), ORB-2 and ORB-3 ln 3: exactly half the best, so kept.
    expect(lineMatches(table, 'payload lease', { shown: [] })).toEqual([
      { offset: 101, terms: ['payload', 'lease'] },
      { offset: 48, terms: ['payload'] },
      { offset: 78, terms: ['lease'] },
    ]);
    expect(lineMatches(table, 'lease', { shown: [] })).toEqual([
      { offset: 78, terms: ['lease'] },
      { offset: 101, terms: ['lease'] },
    ]);
  });

  it('leaves out lines already shown, function words, and queries with nothing to match', () => {
    expect(lineMatches(table, 'lease', { shown: [[70, 101]] })).toEqual([{ offset: 101, terms: ['lease'] }]);
    expect(lineMatches(table, 'what is the', { shown: [] })).toEqual([]);
    expect(lineMatches(table, '', { shown: [] })).toEqual([]);
    expect(lineMatches(table, 'heartbeat', { shown: [] })).toEqual([]);
  });

  it('reports at most `max` lines, and nothing for a term on most lines', () => {
    expect(lineMatches(table, 'payload lease', { shown: [], max: 1 })).toEqual([{ offset: 101, terms: ['payload', 'lease'] }]);
    expect(lineMatches(table, 'orb', { shown: [] })).toEqual([]);
  });
});
