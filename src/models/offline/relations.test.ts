import { describe, expect, it } from 'vitest';
import { relationsOf, statesRelation } from './relations.ts';

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
