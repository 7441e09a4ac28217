import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedFolder } from '../../testing/shared-folder.ts';
import { identifierExpansions } from './identifier-expansions.ts';
import { SPACELESS_CHAR } from '../../text/scripts.ts';
import {
  DEFAULT_TOKENIZER,
  expandIdentifier,
  IDENTIFIER_RUN,
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

  it('splits ASCII (read without regular expressions) as it splits other text', () => {
    expect(splitCamelCase('ABCDe')).toEqual(['abc', 'de']);
    expect(splitCamelCase('IPv6')).toEqual(['i', 'pv', '6']);
    expect(splitCamelCase('a1B2c')).toEqual(['a', '1', 'b', '2', 'c']);
    expect(splitCamelCase('XMLHttp ABC')).toEqual(['xml', 'http', 'abc']);
    expect(splitCamelCase('ÀBCDé')).toEqual(['àbc', 'dé']);
    expect(words('__init__ os.path-Join2')).toEqual(['init', 'os', 'path', 'join2']);
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

  it('finds every kind of expanding run, wherever it sits in a piece of text', () => {
    expect(
      identifierExpansions('x_y (a.b) 3rd B52 fooBar HTTPServer NASA Retry 1995 "--flag" -- a..b a.-b é-x _ foo_ Straße_x'),
    ).toEqual(['xy', 'ab', '3', 'rd', 'b', '52', 'foo', 'bar', 'http', 'server', 'éx', 'straßex']);
    expect(identifierExpansions('plain prose, Capitalised and ALL CAPS, 2024 too.\n\tTabs\rand returns')).toEqual([]);
  });

  it('reads the same expansions as every run read one by one, on the real corpora', ({ skip }) => {
    const folders = [
      sharedFolder('corpora/graphile-worker/docs', process.env),
      sharedFolder('datasets/graphile-worker-dev/docs', process.env),
      sharedFolder('datasets/musique-dev/docs', process.env),
    ];
    skip(!folders.every((folder) => folder.present), folders.find((folder) => !folder.present)?.absent);
    const texts = [...folders.map((folder) => folder.path), fileURLToPath(new URL('../../../datasets/orbit/docs', import.meta.url))].flatMap(
      (folder) => markdownFiles(folder).map((path) => readFileSync(path, 'utf8')),
    );
    expect(texts.length).toBeGreaterThan(100);
    const cache = new Map<string, string[]>();
    let terms = 0;
    for (const text of texts) {
      const expected = everyRunExpansions(text);
      expect(identifierExpansions(text)).toEqual(expected);
      expect(identifierExpansions(text, cache)).toEqual(expected);
      terms += expected.length;
    }
    expect(terms).toBeGreaterThan(10_000);
    expect(cache.size).toBeGreaterThan(1_000);
  });
});

/**
 * What identifierExpansions returned before it skipped pieces of text: the expansions of every
 * run, in order, but none for a lower-case run without separators or digits (so `alˈbaːno`,
 * which splits at its modifier letter, expands to nothing; indexes built before must not change).
 */
function everyRunExpansions(text: string): string[] {
  const seen = new Set<string>();
  // Text without spaces is tokenized apart (character pairs): an identifier beside it is read alone (`廉政行動2009` -> `2009`).
  const spaced = text.replace(new RegExp(SPACELESS_CHAR.source, 'gu'), ' ');
  for (const [run] of spaced.matchAll(IDENTIFIER_RUN)) {
    if (run === run.toLowerCase() && !/[-_.:/\p{N}]/u.test(run)) continue;
    for (const term of expandIdentifier(run)) seen.add(term);
  }
  return [...seen];
}

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(folder, name));
}

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
