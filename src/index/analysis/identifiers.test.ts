import { describe, expect, it } from 'vitest';
import {
  definitionKeys,
  findIdentifiers,
  looksLikeIdentifier,
  queryIdentifiers,
  spellingOf,
  spellingSuffixes,
} from './identifiers.ts';

describe('looksLikeIdentifier', () => {
  it('accepts names from code and configuration', () => {
    const names = [
      'max_payload_kb', 'GRAPHILE_ENABLE_DANGEROUS_LOGS', '__init__', 'ORB-1202', 'ORB1202', 'base64', 'EC2',
      'quartz.scheduler.idleWaitTime', 'orbit.toml', 'v1/queues', 'gracefulShutdownAbortTimeout', 'addJob',
      'PayloadTooLarge', 'HTTPServer', 'IOError', 'utf-8',
    ];
    expect(names.filter((name) => !looksLikeIdentifier(name))).toEqual([]);
  });

  it('rejects words, acronyms, versions, ordinals and quantities', () => {
    const words = [
      'retries', 'Retries', 'NATO', 'APIs', 'TEUs', 'long-running', 'Jong-chul', '3.x', '1.2.3', 'v3', '2nd', '1920s',
      '26th', '100ms', '3x', '300-second', '30-minute', 'U.S', 'e.g', '1202', '10:30',
    ];
    expect(words.filter((word) => looksLikeIdentifier(word))).toEqual([]);
  });
});

describe('findIdentifiers', () => {
  it('finds shaped runs, flags, calls and single names in code spans, with offsets', () => {
    expect(findIdentifiers('Is `localQueue` on? See --schema, add_job() and ORB-1202.')).toEqual([
      { name: 'localQueue', flag: false, marked: true, offset: 4 },
      { name: 'schema', flag: true, marked: true, offset: 26 },
      { name: 'add_job', flag: false, marked: true, offset: 34 },
      { name: 'ORB-1202', flag: false, marked: false, offset: 48 },
    ]);
  });

  it('takes a plain word only from a code span that holds nothing else', () => {
    expect(findIdentifiers('Set `schema` and `concurrency`, not schema.').map((found) => found.name)).toEqual(['schema', 'concurrency']);
    expect(findIdentifiers("`job_key_mode = 'unsafe_dedupe'` or `orbit dlq replay` or `--config PATH`").map(spellingOf)).toEqual([
      'job_key_mode',
      'unsafe_dedupe',
      '--config',
    ]);
  });

  it('finds nothing in plain prose', () => {
    expect(findIdentifiers('How long does a long-running job keep its lease on 3.x?')).toEqual([]);
  });
});

describe('spellings and keys', () => {
  it('lower-cases the spelling and marks flags', () => {
    expect(spellingOf({ name: 'addJob', flag: false })).toBe('addjob');
    expect(spellingOf({ name: 'max-pool-size', flag: true })).toBe('--max-pool-size');
  });

  it('lists the namespace suffixes that start with a letter', () => {
    expect(spellingSuffixes('quartz.scheduler.idlewaittime')).toEqual(['quartz.scheduler.idlewaittime', 'scheduler.idlewaittime', 'idlewaittime']);
    expect(spellingSuffixes('127.0.0.1/my_db')).toEqual(['127.0.0.1/my_db', 'my_db']);
    expect(spellingSuffixes('orb-1202')).toEqual(['orb-1202']);
  });

  it('drops separators and dashes from the keys, and one-letter keys', () => {
    expect(definitionKeys('graphile_worker.add_job')).toEqual(['graphileworkeraddjob', 'addjob']);
    expect(definitionKeys('--schema')).toEqual(['schema']);
    expect(definitionKeys('a.b')).toEqual(['ab']);
  });
});

describe('queryIdentifiers', () => {
  it('gives each identifier its spellings and keys, falling back to an identifier-shaped last segment', () => {
    expect(queryIdentifiers('What does `graphile_worker.force_unlock_workers` do? Is orbit.toml read? And --schema, add_job()?')).toEqual([
      {
        name: 'graphile_worker.force_unlock_workers',
        spellings: ['graphile_worker.force_unlock_workers', 'force_unlock_workers'],
        keys: ['graphileworkerforceunlockworkers', 'forceunlockworkers'],
      },
      { name: 'orbit.toml', spellings: ['orbit.toml'], keys: ['orbittoml'] },
      { name: 'schema', spellings: ['--schema'], keys: ['schema'] },
      { name: 'add_job', spellings: ['add_job'], keys: ['addjob'] },
    ]);
  });

  it('names each identifier once and none in a natural-language question', () => {
    expect(queryIdentifiers('ORB-1202 or orb-1202 or ORB1202?').map((identifier) => identifier.spellings)).toEqual([['orb-1202'], ['orb1202']]);
    expect(queryIdentifiers('Who was president when Iowa became a state?')).toEqual([]);
  });
});
