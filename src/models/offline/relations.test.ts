import { describe, expect, it } from 'vitest';
import { isDefaultField, isNamedRelation, relationsOf, statesRelation } from './relations.ts';

describe('relationsOf', () => {
  it.each([
    ['what is its default value?', ['default value']],
    ['What is the default value of `maxWorkers`?', ['default value']],
    ['Are retries enabled by default?', ['default']],
    ['what should the step return instead?', ['instead']],
    ['Why not, and what should I do', ['instead', 'cause']],
    ['How do I set that up when I enqueue it?', ['how']],
    ['when is it safe to call it?', ['condition']],
    ['how long after shutdown begins does that happen by default?', ['default', 'quantity']],
    ['What does the `localQueue` option do', ['effect']],
    ['Who wrote Hello Love?', []],
    ['What is the `minResetLockedInterval` setting', ['effect']],
  ])('%s -> %j', (text, expected) => {
    expect(relationsOf(text)).toEqual(expected);
  });
});

describe('statesRelation', () => {
  it('recognises how documentation words a relation', () => {
    expect(statesRelation('default', 'Default value: `5_000`')).toBe(true);
    expect(statesRelation('default', 'By default, the total system memory is split evenly between workers.')).toBe(true);
    expect(statesRelation('default value', 'By default, the total system memory is split evenly between workers.')).toBe(false);
    expect(statesRelation('default value', '**Default:** `1 / maxWorkers`')).toBe(true);
    expect(statesRelation('default value', 'It defaults to 10 seconds.')).toBe(true);
    expect(statesRelation('instead', 'Return a reference instead, and let the downstream step load it.')).toBe(true);
    expect(statesRelation('cause', 'It is unsafe because identifiers are deleted.')).toBe(true);
    expect(statesRelation('quantity', 'The lease lasts 30 seconds.')).toBe(true);
    expect(statesRelation('quantity', 'The lease lasts a while.')).toBe(false);
  });
});

describe('isDefaultField', () => {
  it('reads a field line that gives a default, bold or not, whatever its value', () => {
    expect(['- Default: number of logical CPUs', '**Default:** `5`', 'Default value: `480_000`', 'By default, memory is split evenly.', 'Defaults to 5.'].map(isDefaultField)).toEqual([true, true, true, false, false]);
    // A field line states the default value even in words; a sentence needs a value.
    expect(statesRelation('default value', 'Default: number of logical CPUs')).toBe(true);
    expect(statesRelation('default value', 'By default, memory is split evenly.')).toBe(false);
  });
});

describe('isNamedRelation', () => {
  it('holds for the relations a sentence states by naming them, not for those most sentences word', () => {
    const relations = ['default value', 'default', 'instead', 'cause', 'how', 'condition', 'quantity', 'effect'] as const;
    expect(relations.filter(isNamedRelation)).toEqual(['default value', 'default', 'instead']);
  });
});
