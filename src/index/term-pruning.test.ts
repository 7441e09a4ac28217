import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Doc } from '../corpus/types.ts';
import { filterClause } from './filter.ts';
import { quoteTerm } from './query.ts';
import { createSqliteIndex } from './sqlite.ts';
import { createStatementCache } from './sqlite-rows.ts';
import { createTermPruning, type ScoredId } from './term-pruning.ts';
import { createTestDoc } from './test-docs.ts';
import type { SearchFilter } from './types.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-pruning-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BM25 = 'bm25(chunks_fts, 2, 3, 0.5, 1, 1)';
const WORDS = [
  'queue', 'worker', 'job', 'retry', 'backoff', 'cron', 'schedule', 'payload', 'timeout', 'lock',
  'batch', 'priority', 'failed', 'success', 'task', 'event', 'listen', 'notify', 'database', 'schema',
  'migration', 'postgres', 'connection', 'pool', 'signal', 'shutdown', 'graceful', 'crontab', 'interval', 'delay',
  'key', 'unique', 'flag', 'forbidden', 'admin', 'helper', 'logger', 'metrics', 'trace', 'span',
];

/** A seeded generator (mulberry32): the same corpus and queries on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words drawn with weight 1 / (rank + 1), so a few are common and most are rare, as in prose. */
function zipfWords(random: () => number, count: number): string[] {
  const weights = WORDS.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return Array.from({ length: count }, () => {
    let left = random() * total;
    for (const [rank, weight] of weights.entries()) if ((left -= weight) <= 0) return WORDS[rank]!;
    return WORDS[WORDS.length - 1]!;
  });
}

function randomCorpus(random: () => number): Doc[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: 120 }, (_, n) =>
    createTestDoc({
      docId: `d${n}`,
      title: zipfWords(random, 1 + Math.floor(random() * 3)).join(' '),
      appliesTo: pick(['2.x', '3.x', 'all', 'all']),
      labels: { ...(random() < 0.3 ? { team: pick(['a', 'b']) } : {}), ...(random() < 0.1 ? { acl: ['staff'] } : {}) },
      sections: Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
        heading: zipfWords(random, 1 + Math.floor(random() * 2)).join(' '),
        text: zipfWords(random, 3 + Math.floor(random() * 40)).join(' '),
      })),
    }),
  );
}

/** The full query, written here independently of the module: every matching row scored, best `limit` kept. */
function fullTopIds(db: Database.Database, terms: string[], filter: SearchFilter | undefined, limit: number): ScoredId[] {
  const where = filterClause(filter, 'c', { restricted: true });
  return db
    .prepare(
      `SELECT c.id AS id, -${BM25} AS score FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
       WHERE chunks_fts MATCH ?${where.sql} ORDER BY score DESC, c.id LIMIT ?`,
    )
    .all(terms.map(quoteTerm).join(' OR '), ...where.params, limit) as ScoredId[];
}

describe('createTermPruning', () => {
  it('returns exactly the full query’s top k (rows, scores, order) for random queries and filters, pruning most of them', async () => {
    const random = seeded(16);
    const path = join(scratch, 'random.db');
    const index = createSqliteIndex({ path });
    await index.ingest(randomCorpus(random));
    await index.close();
    const db = new Database(path, { readonly: true });
    const pruning = createTermPruning(createStatementCache(db), BM25, { minPostings: 0 });
    const filters: Array<SearchFilter | undefined> = [
      undefined,
      { version: '3.x' },
      { labels: { team: 'a' } },
      { version: '2.x', principal: { groups: ['staff'] } },
    ];
    let pruned = 0;
    let compared = 0;
    for (let query = 0; query < 400; query += 1) {
      const terms = [...new Set(zipfWords(random, 2 + Math.floor(random() * 5)))];
      const filter = filters[query % filters.length];
      const limit = [1, 3, 10][query % 3]!;
      const result = pruning(terms, filterClause(filter, 'c', { restricted: true }), limit);
      if (result === undefined) continue;
      pruned += 1;
      compared += result.length;
      expect({ terms, filter, limit, result }).toEqual({ terms, filter, limit, result: fullTopIds(db, terms, filter, limit) });
    }
    db.close();
    // The test means something only if pruning ran on most queries and returned rows.
    expect(pruned).toBeGreaterThan(200);
    expect(compared).toBeGreaterThan(1000);
  });

  it('leaves a query to the full evaluation below minPostings, for a single term, and for terms found nowhere', async () => {
    const path = join(scratch, 'small.db');
    const index = createSqliteIndex({ path });
    await index.ingest(randomCorpus(seeded(7)));
    await index.close();
    const db = new Database(path, { readonly: true });
    const where = filterClause(undefined, 'c', { restricted: true });
    const statements = createStatementCache(db);
    expect(createTermPruning(statements, BM25)(['queue', 'worker', 'job'], where, 10)).toBeUndefined();
    const always = createTermPruning(statements, BM25, { minPostings: 0 });
    expect(always(['queue'], where, 10)).toBeUndefined();
    expect(always(['queue', 'nowhere'], where, 10)).toBeUndefined();
    db.close();
  });
});
