import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOKENIZER,
  expandIdentifier,
  identifierExpansions,
  lightStem,
  normalizeIdentifier,
  searchTerms,
  splitCamelCase,
  words,
} from './tokenize.ts';

describe('words', () => {
  it('splits on punctuation, underscores and spaces and lower-cases, like FTS5 unicode61', () => {
    expect(words('See max_payload_kb. ORB-1202, café 日本語 😀')).toEqual(['see', 'max', 'payload', 'kb', 'orb', '1202', 'café', '日本語']);
    expect(words('')).toEqual([]);
  });
});

describe('splitCamelCase', () => {
  it('splits case changes, acronyms and digits', () => {
    expect(splitCamelCase('PayloadTooLarge')).toEqual(['payload', 'too', 'large']);
    expect(splitCamelCase('idleWaitTime')).toEqual(['idle', 'wait', 'time']);
    expect(splitCamelCase('getHTTPResponseCode')).toEqual(['get', 'http', 'response', 'code']);
    expect(splitCamelCase('HTTPServer2')).toEqual(['http', 'server', '2']);
    expect(splitCamelCase('ORB1202')).toEqual(['orb', '1202']);
    expect(splitCamelCase('plain')).toEqual(['plain']);
  });
});

describe('normalizeIdentifier', () => {
  it('drops separators and case', () => {
    expect(normalizeIdentifier('ORB-1202')).toBe('orb1202');
    expect(normalizeIdentifier('max_payload_kb')).toBe('maxpayloadkb');
    expect(normalizeIdentifier('quartz.scheduler.idleWaitTime')).toBe('quartzscheduleridlewaittime');
  });
});

describe('expandIdentifier', () => {
  it('adds the whole identifier, namespace suffixes and CamelCase parts', () => {
    expect(expandIdentifier('quartz.scheduler.idleWaitTime')).toEqual([
      'quartzscheduleridlewaittime',
      'scheduleridlewaittime',
      'idle',
      'wait',
      'time',
    ]);
    expect(expandIdentifier('ORB-1202')).toEqual(['orb1202']);
    expect(expandIdentifier('ORB1202')).toEqual(['orb', '1202']);
    expect(expandIdentifier('max_payload_kb')).toEqual(['maxpayloadkb']);
    expect(expandIdentifier('PayloadTooLarge')).toEqual(['payload', 'too', 'large']);
    expect(expandIdentifier('a/b/c/d')).toEqual(['abcd', 'bcd', 'cd']);
  });

  it('leaves plain words alone', () => {
    expect(expandIdentifier('plain')).toEqual([]);
    expect(expandIdentifier('__init__')).toEqual([]);
  });
});

describe('identifierExpansions', () => {
  it('collects each expansion of a text once, in order', () => {
    expect(identifierExpansions('Raise max_payload_kb on PayloadTooLarge. See [worker] lease_seconds, ORB-1202 and max_payload_kb.')).toEqual([
      'maxpayloadkb',
      'payload',
      'too',
      'large',
      'leaseseconds',
      'orb1202',
    ]);
    expect(identifierExpansions('Nothing special here.')).toEqual([]);
  });
});

describe('searchTerms', () => {
  it('lists words then expansions of each run, with the offset of the run', () => {
    expect(searchTerms('ORB-1202 fails', DEFAULT_TOKENIZER)).toEqual([
      { term: 'orb', offset: 0 },
      { term: '1202', offset: 0 },
      { term: 'orb1202', offset: 0 },
      { term: 'fails', offset: 9 },
    ]);
  });

  it('lists plain words only when identifier expansions are off', () => {
    expect(searchTerms('ORB-1202 fails', { porter: true, identifiers: false }).map((term) => term.term)).toEqual([
      'orb',
      '1202',
      'fails',
    ]);
  });
});

describe('lightStem', () => {
  it('maps common inflections of a word to one stem', () => {
    expect(['retries', 'retry', 'retried'].map(lightStem)).toEqual(['retri', 'retri', 'retri']);
    expect(['sizes', 'size'].map(lightStem)).toEqual(['siz', 'siz']);
    expect(['passes', 'pass'].map(lightStem)).toEqual(['pass', 'pass']);
    expect(['caches', 'cache', 'caching'].map(lightStem)).toEqual(['cach', 'cach', 'cach']);
    expect(lightStem('kb')).toBe('kb');
  });
});
