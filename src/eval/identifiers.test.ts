import { describe, expect, it } from 'vitest';
import { findIdentifiers, namesIdentifier } from './identifiers.ts';

const shapes = (query: string) => findIdentifiers(query).map((token) => `${token.shape}:${token.text}`);

describe('findIdentifiers', () => {
  it('finds each identifier shape, in order of appearance', () => {
    expect(shapes('What does `job_key_mode = \'unsafe_dedupe\'` do?')).toEqual(["backticked:job_key_mode = 'unsafe_dedupe'"]);
    expect(shapes('Does --max-chunks or --json change ORB-1202 and ERR-123?')).toEqual(['flag:--max-chunks', 'flag:--json', 'code:ORB-1202', 'code:ERR-123']);
    expect(shapes('Why use KillMode=mixed, and what does GET /v1/queues return?')).toEqual(['assignment:KillMode=mixed', 'path:/v1/queues']);
    expect(shapes('Is orbit.toml read before GraphileWorker.Tasks and graphile_worker.add_job?')).toEqual([
      'dotted:orbit.toml',
      'dotted:GraphileWorker.Tasks',
      'dotted:graphile_worker.add_job',
    ]);
    expect(shapes('Set GRAPHILE_ENABLE_DANGEROUS_LOGS and max_payload_kb')).toEqual(['screaming_case:GRAPHILE_ENABLE_DANGEROUS_LOGS', 'snake_case:max_payload_kb']);
    expect(shapes('What do gracefulShutdownAbortTimeout and PayloadTooLarge mean?')).toEqual(['camelCase:gracefulShutdownAbortTimeout', 'camelCase:PayloadTooLarge']);
  });

  it('reports a token inside backticks once, as backticked, and repeats once', () => {
    expect(shapes('Is `max_payload_kb` the same as max_payload_kb?')).toEqual(['backticked:max_payload_kb']);
  });

  it('leaves plain words, numbers, versions, abbreviations and names alone', () => {
    expect(findIdentifiers('Does Orbit 3.x on v3.2 keep 5_000 jobs, e.g. in JavaScript or PostgreSQL for McDonald?')).toEqual([]);
    expect(findIdentifiers("Who played the It'll Be Me singer in Walk the Line?")).toEqual([]);
    expect(findIdentifiers('A well-known, two-step and/or 24/7 set-up.')).toEqual([]);
  });
});

describe('namesIdentifier', () => {
  it('is true for exact_term queries and for queries holding an identifier token', () => {
    expect(namesIdentifier({ kind: 'exact_term', query: 'What does orbit dlq replay do?' })).toBe(true);
    expect(namesIdentifier({ kind: 'multi_hop', query: 'Why does ORBIT_LOG_LEVEL=debug do nothing?' })).toBe(true);
    expect(namesIdentifier({ kind: 'semantic', query: 'How do I retry a failed job?' })).toBe(false);
  });
});
