import { describe, expect, it } from 'vitest';
import { americanStem } from './spelling.ts';
import { stem } from './text.ts';

describe('americanStem', () => {
  it('writes a British stem the American way and leaves short and other stems alone', () => {
    expect(['behaviour', 'optimisations', 'initialis', 'analys', 'hour', 'rais', 'cruis', 'error'].map(americanStem)).toEqual([
      'behavior',
      'optimizations',
      'initializ',
      'analyz',
      'hour',
      'rais',
      'cruis',
      'error',
    ]);
  });

  it('lets stem meet both spellings of a word in every inflection', () => {
    const pairs = [
      ['behaviour', 'behavior'],
      ['behaviours', 'behaviors'],
      ['initialised', 'initialized'],
      ['initialising', 'initializing'],
      ['analyse', 'analyze'],
      ['optimisation', 'optimization'],
      ['flavour', 'flavor'],
    ];
    expect(pairs.map(([british, american]) => [stem(british!), stem(american!)])).toEqual([
      ['behavi', 'behavi'],
      ['behavior', 'behavior'],
      ['initializ', 'initializ'],
      ['initializ', 'initializ'],
      ['analyz', 'analyz'],
      ['optimization', 'optimization'],
      ['flavor', 'flavor'],
    ]);
  });
});
