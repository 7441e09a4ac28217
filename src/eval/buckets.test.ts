import { describe, expect, it } from 'vitest';
import { makeDoc } from '../testing/memory-index.ts';
import { classifyFailure, distinctiveTerms, termsOf, type FailureFacts } from './buckets.ts';

const docs = [
  makeDoc('flows', 'all', [['Flows', 'A flow chains steps.'], ['Step results', 'Big results fail.']]),
  makeDoc('error-codes', 'all', [['Error codes', 'Codes.'], ['Payload errors', 'ORB-1202 PayloadTooLarge.']]),
  makeDoc('limits', 'all', [['Limits', 'Caps.'], ['max_payload_kb', 'Defaults to 256.']]),
  makeDoc('overview', 'all', [['Overview', 'Orbit runs jobs.'], ['Step results', 'See flows.']]),
];
const terms = distinctiveTerms(docs);
const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({
  gold: ['flows', 'limits'],
  seenDocIds: [],
  citedDocIds: [],
  queries: [],
  errored: false,
  ...overrides,
});

describe('termsOf', () => {
  it('keeps words of 3+ letters and words with digits, drops stop words, strips a plural s', () => {
    expect(termsOf('What is ORB-1202? The PayloadTooLarge errors, in 3.x, with class')).toEqual(['orb', '1202', 'payloadtoolarge', 'error', '3', 'class']);
  });
});

describe('distinctiveTerms', () => {
  it('keeps title and heading terms that at most max(2, 2% of docs) documents share', () => {
    expect(Object.fromEntries([...terms].map(([docId, set]) => [docId, [...set].sort()]))).toEqual({
      flows: ['flow', 'result', 'step'],
      'error-codes': ['code', 'error', 'payload'],
      limits: ['limit', 'max', 'payload'],
      overview: ['overview', 'result', 'step'],
    });
    const crowded = distinctiveTerms([...docs, makeDoc('results', 'all', [['Results', 'Stored.'], ['Step results', 'x']])]);
    expect([...(crowded.get('flows') ?? [])].sort()).toEqual(['flow']);
  });
});

describe('classifyFailure', () => {
  it('puts a failed run in "error" before anything else', () => {
    expect(classifyFailure(facts({ errored: true, seenDocIds: ['flows', 'limits'] }), terms)).toBe('error');
  });

  it('puts an answer where the run should abstain in "generation"', () => {
    expect(classifyFailure(facts({ gold: [], citedDocIds: ['flows'] }), terms)).toBe('generation');
  });

  it('puts a wrong citation in "generation" when a gold page was seen', () => {
    expect(classifyFailure(facts({ seenDocIds: ['flows', 'overview'], citedDocIds: ['overview'], queries: ['limits step'] }), terms)).toBe('generation');
  });

  it('puts "every gold page seen, none cited" in "ranking"', () => {
    expect(classifyFailure(facts({ seenDocIds: ['limits', 'flows'] }), terms)).toBe('ranking');
  });

  it('puts a gold page that no query named in "planning"', () => {
    expect(classifyFailure(facts({ seenDocIds: ['flows'], queries: ['step result size', 'big results'] }), terms)).toBe('planning');
  });

  it('puts a gold page that was searched for but never surfaced in "retrieval"', () => {
    expect(classifyFailure(facts({ seenDocIds: ['flows'], queries: ['step result size', 'payload cap'] }), terms)).toBe('retrieval');
    expect(classifyFailure(facts({ seenDocIds: [], citedDocIds: ['overview'], queries: ['flows and limits'] }), terms)).toBe('retrieval');
  });

  it('never judges a page without distinctive terms unsearched', () => {
    const bland = new Map([['flows', new Set<string>()], ['limits', new Set<string>()]]);
    expect(classifyFailure(facts({ queries: ['anything'] }), bland)).toBe('retrieval');
  });
});
