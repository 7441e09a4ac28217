import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../corpus/load.ts';
import type { Doc } from '../../corpus/types.ts';
import { sharedFolder } from '../../testing/shared-folder.ts';
import { createFts5Tokenizer } from '../analysis/fts5-tokens.ts';
import { NORM_LENGTHS } from './postings-bm25.ts';
import { filterClause } from '../filter.ts';
import { innerHeadingsText } from '../heading-path.ts';
import { createPostingsReader } from './postings-store.ts';
import { createRankScratch, topByBm25, type RankStats, type ScoredId } from './postings-search.ts';
import { buildSearchQuery, quoteTerm } from './query.ts';
import { createSqliteIndex } from '../sqlite/sqlite.ts';
import { chunkFromRow, CHUNK_COLUMNS, createStatementCache, type ChunkRow, type StatementCache } from '../sql-rows.ts';
import { createTestDoc } from '../test-docs.ts';
import { identifierExpansions } from '../analysis/identifier-expansions.ts';
import { DEFAULT_TOKENIZER } from '../analysis/tokenize.ts';
import type { SearchFilter } from '../types.ts';

const scratchFolder = mkdtempSync(join(tmpdir(), 'atlas-postings-'));
afterAll(() => rmSync(scratchFolder, { recursive: true, force: true }));

const WEIGHTS = [2, 3, 0.5, 1, 1];
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

function randomDoc(random: () => number, docId: string, sections: number): Doc {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return createTestDoc({
    docId,
    title: zipfWords(random, 1 + Math.floor(random() * 3)).join(' '),
    appliesTo: pick(['2.x', '3.x', 'all', 'all']),
    labels: { ...(random() < 0.3 ? { team: pick(['a', 'b']) } : {}), ...(random() < 0.1 ? { acl: ['staff'] } : {}) },
    sections: Array.from({ length: sections }, () => ({
      heading: zipfWords(random, 1 + Math.floor(random() * 2)).join(' '),
      text: zipfWords(random, 3 + Math.floor(random() * 40)).join(' ') + (random() < 0.2 ? ' See `max_retry_count` and TaskQueue.' : ''),
    })),
  });
}

function randomCorpus(random: () => number, docs: number, maxSections: number): Doc[] {
  return Array.from({ length: docs }, (_, n) => randomDoc(random, `d${n}`, 1 + Math.floor(random() * maxSections)));
}

/**
 * An FTS5 table of the same columns as the postings store, written here from the stored chunk
 * rows (independently of the ingest): the oracle whose bm25() the engine must reproduce.
 */
function addOracle(db: Database.Database, tokenize: string): void {
  db.exec(`DROP TABLE IF EXISTS oracle; CREATE VIRTUAL TABLE oracle USING fts5(title, heading, heading_path, body, idents, tokenize='${tokenize}')`);
  const insert = db.prepare('INSERT INTO oracle (rowid, title, heading, heading_path, body, idents) VALUES (?, ?, ?, ?, ?, ?)');
  const expansions = new Map<string, string[]>();
  db.transaction(() => {
    for (const row of db.prepare(`SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c`).all() as Array<ChunkRow & { id: number }>) {
      const chunk = chunkFromRow(row);
      const idents = identifierExpansions(`${chunk.heading}\n${chunk.text}`, expansions).join(' ');
      insert.run(row.id, chunk.title, chunk.heading, innerHeadingsText(chunk), chunk.text, idents);
    }
  })();
}

/** An index of `docs` without Porter stemming (file `<name>.db`), opened with the oracle beside. */
async function indexedWithOracle(name: string, docs: Doc[]): Promise<Database.Database> {
  const path = join(scratchFolder, `${name}.db`);
  const index = createSqliteIndex({ path, tokenizer: { porter: false } });
  await index.ingest(docs);
  await index.close();
  const db = new Database(path);
  addOracle(db, 'unicode61 remove_diacritics 2');
  return db;
}

/** The oracle's top k: every matching row scored by FTS5, ties by id. */
function oracleTop(db: Database.Database, terms: string[], filter: SearchFilter | undefined, k: number): ScoredId[] {
  const where = filterClause(filter, 'c', { restricted: true });
  return db
    .prepare(
      `SELECT c.id AS id, -bm25(oracle, ${WEIGHTS.join(', ')}) AS score FROM oracle JOIN chunks c ON c.id = oracle.rowid
       WHERE oracle MATCH ?${where.sql} ORDER BY score DESC, c.id LIMIT ?`,
    )
    .all(terms.map(quoteTerm).join(' OR '), ...where.params, k) as ScoredId[];
}

const caches = new WeakMap<Database.Database, StatementCache>();
// One scratch per test file: every comparison below also checks that reused buffers come back clean.
const scratch = createRankScratch();

function engineTop(db: Database.Database, tokens: string[], filter: SearchFilter | undefined, k: number, stats?: RankStats): ScoredId[] {
  let statements = caches.get(db);
  if (statements === undefined) caches.set(db, (statements = createStatementCache(db)));
  const where = filterClause(filter, 'c', { restricted: true });
  const passes = statements.get(`SELECT 1 FROM chunks c WHERE c.id = ?${where.sql}`).pluck();
  const accept = where.sql === '' ? undefined : (id: number) => passes.get(id, ...where.params) !== undefined;
  return topByBm25(createPostingsReader((sql) => statements.get(sql)), { tokens, weights: WEIGHTS, k, accept, stats, scratch });
}

/** The access check of an unsigned-in principal (the random corpora have pages with an acl label), as oracleTop applies it. */
function publicAccept(db: Database.Database): (id: number) => boolean {
  const where = filterClause(undefined, 'c', { restricted: true });
  const passes = db.prepare(`SELECT 1 FROM chunks c WHERE c.id = ?${where.sql}`).pluck();
  return (id) => passes.get(id, ...where.params) !== undefined;
}

const FILTERS: Array<SearchFilter | undefined> = [
  undefined,
  { version: '3.x' },
  { labels: { team: 'a' } },
  { version: '2.x', principal: { groups: ['staff'] } },
];

/** Compares engine and oracle on `queries` random queries; returns the rows compared and what was decoded. */
function compareRandomQueries(db: Database.Database, random: () => number, queries: number): { rows: number; stats: RankStats } {
  const stats: RankStats = { decoded: 0, postings: 0 };
  let rows = 0;
  for (let query = 0; query < queries; query += 1) {
    const terms = [...new Set(zipfWords(random, 1 + Math.floor(random() * 6)))];
    const filter = FILTERS[query % FILTERS.length];
    const k = [1, 3, 10, 50][query % 4]!;
    const expected = oracleTop(db, terms, filter, k);
    rows += expected.length;
    expect({ terms, filter, k, result: engineTop(db, terms, filter, k, stats) }).toEqual({ terms, filter, k, result: expected });
  }
  return { rows, stats };
}

describe('topByBm25', () => {
  it('returns exactly FTS5 bm25()’s top k (ids, scores, order) for random queries and filters', async () => {
    const random = seeded(16);
    const db = await indexedWithOracle('random', randomCorpus(random, 120, 4));
    const { rows } = compareRandomQueries(db, random, 400);
    db.close();
    expect(rows).toBeGreaterThan(3000);
  });

  it('stays exact after incremental ingests that update, remove and add pages', async () => {
    const random = seeded(3);
    const path = join(scratchFolder, 'incremental.db');
    const index = createSqliteIndex({ path, tokenizer: { porter: false } });
    // 40 pages of 60-100 sections: several blocks per term, common words in every block.
    const first = Array.from({ length: 40 }, (_, n) => randomDoc(random, `p${n}`, 60 + Math.floor(random() * 40)));
    await index.ingest(first);
    const second = first
      .filter((_, n) => n % 7 !== 3)
      .map((doc, n) => (n % 5 === 0 ? randomDoc(random, doc.docId, 30 + Math.floor(random() * 60)) : doc));
    await index.ingest([...second, ...Array.from({ length: 5 }, (_, n) => randomDoc(random, `new${n}`, 50))]);
    await index.close();
    const db = new Database(path);
    addOracle(db, 'unicode61 remove_diacritics 2');
    const chunkCount = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    expect(db.prepare('SELECT chunks FROM postings_totals').pluck().get()).toBe(chunkCount);
    const { rows } = compareRandomQueries(db, random, 120);
    db.close();
    expect(rows).toBeGreaterThan(1500);
  });

  it('skips the blocks of a common term that no chunk of a rare one falls in', async () => {
    // 'common' in all 3,000 chunks (24 blocks), 'rare' in 3 of them.
    const docs = Array.from({ length: 30 }, (_, n) =>
      createTestDoc({ docId: `c${n}`, sections: Array.from({ length: 100 }, (_, ord) => `common words ${ord}${n % 10 === 3 && ord === 50 ? ' rare' : ''}`) }),
    );
    const db = await indexedWithOracle('skip', docs);
    const stats: RankStats = { decoded: 0, postings: 0 };
    expect(engineTop(db, ['common', 'rare'], undefined, 3, stats)).toEqual(oracleTop(db, ['common', 'rare'], undefined, 3));
    db.close();
    expect(stats.postings).toBe(3_003);
    // The rare term's block, and the common term's blocks holding its 3 chunks: at most 4 blocks.
    expect(stats.decoded).toBeLessThanOrEqual(4 * 128);
  });

  it('asks the store for no more rows than a term has from the row it reads', async () => {
    // 'common' in all 3,000 chunks (24 blocks, two rows of 16 and 8), 'rare' in 3 of them (one row).
    const docs = Array.from({ length: 30 }, (_, n) =>
      createTestDoc({ docId: `c${n}`, sections: Array.from({ length: 100 }, (_, ord) => `common words ${ord}${n % 10 === 3 && ord === 50 ? ' rare' : ''}`) }),
    );
    const db = await indexedWithOracle('row-limits', docs);
    const store = createPostingsReader((sql) => db.prepare(sql));
    const asked: Array<[string, number, number]> = [];
    const ids = new Map([...store.terms(['common', 'rare'])].map(([term, stored]) => [stored.id, term]));
    const reader = { ...store, rows: (termId: number, fromKey: number, limit: number) => (asked.push([ids.get(termId)!, fromKey, limit]), store.rows(termId, fromKey, limit)) };
    const rank = (tokens: string[], k: number) => topByBm25(reader, { tokens, weights: WEIGHTS, k, scratch });
    expect(rank(['rare'], 3)).toEqual(oracleTop(db, ['rare'], undefined, 3));
    expect(rank(['common'], 3_000)).toEqual(oracleTop(db, ['common'], undefined, 3_000));
    db.close();
    // The rare term's one row (read by its rowid); the common term's two rows in one batch of two.
    expect(asked).toEqual([
      ['rare', 0, 1],
      ['common', 0, 2],
    ]);
  });

  it('returns the same top 10 for queries that mix common and rare words, decoding fewer postings than they hold', async () => {
    // 4,000 chunks of 40 words drawn from 3,000 with Zipf weights (as in prose: a few words in
    // most chunks, most words in few); queries of 3-6 such words.
    const random = seeded(5);
    const vocabulary = Array.from({ length: 3_000 }, (_, n) => `w${n.toString(36)}`);
    const cumulative: number[] = [];
    vocabulary.reduce((sum, _, rank) => (cumulative[rank] = sum + 1 / (rank + 1)), 0);
    const draw = () => {
      const target = random() * cumulative[cumulative.length - 1]!;
      let low = 0;
      let high = cumulative.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (cumulative[middle]! < target) low = middle + 1;
        else high = middle;
      }
      return vocabulary[low]!;
    };
    const docs = Array.from({ length: 40 }, (_, n) =>
      createTestDoc({ docId: `z${n}`, sections: Array.from({ length: 100 }, () => Array.from({ length: 40 }, draw).join(' ')) }),
    );
    const db = await indexedWithOracle('zipf', docs);
    const stats: RankStats = { decoded: 0, postings: 0 };
    for (let query = 0; query < 60; query += 1) {
      const terms = [...new Set(Array.from({ length: 3 + Math.floor(random() * 4) }, draw))];
      const filter = query % 2 === 0 ? undefined : { version: '3.x' };
      expect(engineTop(db, terms, filter, 10, stats)).toEqual(oracleTop(db, terms, filter, 10));
    }
    db.close();
    // Most postings of such queries are of common words, which exact scores must still read
    // where a candidate falls; an engine without pruning decodes them all (and more: the seed).
    expect(stats.decoded / stats.postings).toBeLessThan(0.9);
  });

  it('starts afresh after a search that threw midway with the same scratch buffers', async () => {
    const db = await indexedWithOracle('throw', randomCorpus(seeded(21), 60, 4));
    const reader = createPostingsReader((sql) => db.prepare(sql));
    const shared = createRankScratch();
    const accept = publicAccept(db);
    let calls = 0;
    const failing = (id: number) => {
      calls += 1;
      if (calls > 3) throw new Error('filter failed');
      return accept(id);
    };
    // One term: no seed pass, so the filter fails in the middle of a window, its buffers half read.
    expect(() => topByBm25(reader, { tokens: ['queue'], weights: WEIGHTS, k: 10, accept: failing, scratch: shared })).toThrow('filter failed');
    const terms = ['queue', 'worker', 'retry', 'job'];
    expect(shared.clean).toBe(false);
    expect(topByBm25(reader, { tokens: terms, weights: WEIGHTS, k: 10, accept, scratch: shared })).toEqual(oracleTop(db, terms, undefined, 10));
    expect(shared.clean).toBe(true);
    db.close();
  });

  it('reads a non-essential term term at a time from the window on, however far behind its cursor is', async () => {
    // 12,000 chunks. 'alpha' (essential) in chunks 6,000-7,999. 'beta' and 'gamma' are common
    // from chunk 8,000 on (so their bounds add up below θ: non-essential) and dense enough among
    // alpha's chunks to be read term at a time there; 'beta' also holds 20 chunks 2,048 before
    // alpha's first, which its cursor has not passed when the first window is read.
    const sections = Array.from({ length: 12_000 }, (_, n) => {
      const words = ['filler', 'text', `w${n % 97}`];
      if (n >= 6_000 && n < 8_000) words.push('alpha', 'alpha', 'alpha');
      if ((n >= 6_000 && n < 8_000 && n % 3 === 0) || n >= 8_000 || (n >= 3_952 && n < 3_972)) words.push('beta', 'beta');
      if ((n >= 6_000 && n < 8_000 && n % 5 === 1) || n >= 8_000) words.push('gamma');
      return words.join(' ');
    });
    const docs = Array.from({ length: 120 }, (_, n) => createTestDoc({ docId: `d${n}`, sections: sections.slice(n * 100, n * 100 + 100) }));
    const db = await indexedWithOracle('lagging', docs);
    const stats: RankStats = { decoded: 0, postings: 0, probes: 0 };
    for (const terms of [['alpha', 'beta', 'gamma'], ['gamma', 'beta', 'alpha']]) {
      expect(engineTop(db, terms, undefined, 10, stats)).toEqual(oracleTop(db, terms, undefined, 10));
    }
    db.close();
    // Read term at a time, the non-essential terms were not looked up per candidate.
    expect(stats.probes).toBeLessThan(100);
  });

  it('stays exact when the window stamps start over', async () => {
    const db = await indexedWithOracle('stamps', randomCorpus(seeded(8), 60, 4));
    const reader = createPostingsReader((sql) => db.prepare(sql));
    const shared = createRankScratch();
    const accept = publicAccept(db);
    topByBm25(reader, { tokens: ['queue', 'worker', 'retry', 'job'], weights: WEIGHTS, k: 10, accept, scratch: shared });
    // Two windows short of the largest stamp: the searches below cross it.
    shared.stamp = 0x7fffffff - 2;
    for (const terms of [['queue', 'worker', 'retry'], ['job', 'retry'], ['worker', 'job', 'queue', 'retry'], ['queue', 'job']]) {
      expect(topByBm25(reader, { tokens: terms, weights: WEIGHTS, k: 10, accept, scratch: shared })).toEqual(oracleTop(db, terms, undefined, 10));
    }
    expect(shared.stamp).toBeLessThan(100);
    db.close();
  });

  it('scores chunks longer than its table of length normalisations exactly', async () => {
    const random = seeded(10);
    const docs = randomCorpus(random, 20, 2);
    // Two chunks past NORM_LENGTHS tokens (the table's end), one just inside it, among short ones.
    docs.push(
      ...[NORM_LENGTHS + 1500, NORM_LENGTHS + 3, NORM_LENGTHS - 200].map((words, n) =>
        createTestDoc({ docId: `long${n}`, title: 'long page', sections: [{ heading: 'retry queue', text: zipfWords(random, words).join(' ') }] }),
      ),
    );
    const db = await indexedWithOracle('long', docs);
    const long = db.prepare('SELECT COUNT(*) FROM chunks WHERE length(text) > ?').pluck().get(NORM_LENGTHS * 3) as number;
    expect(long).toBe(3);
    for (const terms of [['queue'], ['retry', 'queue', 'worker'], ['long', 'job'], ['forbidden', 'admin', 'span']]) {
      const top = engineTop(db, terms, undefined, 30);
      expect(top).toEqual(oracleTop(db, terms, undefined, 30));
    }
    db.close();
  });

  it('counts a term once per phrase, returns nothing for unknown terms or an empty index, and respects k', async () => {
    const path = join(scratchFolder, 'edge.db');
    const empty = new Database(join(scratchFolder, 'empty.db'));
    const index = createSqliteIndex({ path, tokenizer: { porter: false } });
    await index.ingest(randomCorpus(seeded(9), 30, 3));
    await index.close();
    const db = new Database(path);
    addOracle(db, 'unicode61 remove_diacritics 2');
    expect(engineTop(db, ['queue', 'queue', 'retry'], undefined, 5)).toEqual(oracleTop(db, ['queue', 'queue', 'retry'], undefined, 5));
    expect(engineTop(db, ['nowhere'], undefined, 5)).toEqual([]);
    expect(engineTop(db, [], undefined, 5)).toEqual([]);
    expect(engineTop(db, ['queue'], undefined, 2)).toHaveLength(2);
    db.close();
    const fresh = createSqliteIndex({ path: join(scratchFolder, 'empty.db') });
    await fresh.close();
    expect(engineTop(empty, ['queue'], undefined, 5)).toEqual([]);
    empty.close();
  });
});

describe('topByBm25 on real docs', () => {
  const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
  const graphile = sharedFolder('datasets/graphile-worker-dev', process.env);
  const cases = [
    { name: 'Orbit', root: join(repoRoot, 'datasets/orbit'), present: true },
    { name: 'graphile-worker-dev', root: graphile.path, present: graphile.present },
  ];
  for (const { name, root, present } of cases) {
    it.skipIf(!present)(`equals FTS5’s porter bm25() top 10 for every query and question of ${name}, filtered by version and not`, async () => {
      const { docs } = await loadCorpus(join(root, 'docs'));
      const path = join(scratchFolder, `${name}.db`);
      const index = createSqliteIndex({ path });
      await index.ingest(docs);
      await index.close();
      const db = new Database(path);
      addOracle(db, 'porter unicode61 remove_diacritics 2');
      const lines = ['retrieval_queries.jsonl', 'qa_gold.jsonl'].flatMap((file) =>
        readFileSync(join(root, 'eval', file), 'utf8').split('\n').filter((line) => line.trim() !== ''),
      );
      const questions = lines.map((line) => JSON.parse(line) as { query?: string; question?: string }).map((line) => line.query ?? line.question!);
      const tokenizer = createFts5Tokenizer({ porter: true });
      let rows = 0;
      for (const [n, question] of questions.entries()) {
        const built = buildSearchQuery(question, DEFAULT_TOKENIZER)!;
        const filter = n % 2 === 0 ? undefined : { version: '3.x' };
        const expected = oracleTop(db, built.terms, filter, 10);
        rows += expected.length;
        expect({ question, top: engineTop(db, built.terms.flatMap((term) => tokenizer.tokens(term)), filter, 10) }).toEqual({ question, top: expected });
      }
      db.close();
      expect(questions.length).toBeGreaterThan(40);
      expect(rows).toBeGreaterThan(questions.length * 5);
    });
  }
});
