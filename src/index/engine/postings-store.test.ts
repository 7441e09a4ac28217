import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { readPostings } from './postings-codec.ts';
import { decodeSkips } from './postings-skips.ts';
import { createPostingsReader, POSTINGS_TABLES, rowIdOf } from './postings-store.ts';
import { createPostingsWriter } from './postings-writer.ts';
import { createSqlitePostingsTables } from './postings-tables.ts';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

function store() {
  const db = new Database(':memory:');
  open.push(db);
  db.exec(POSTINGS_TABLES);
  return { db, writer: createPostingsWriter(createSqlitePostingsTables(db)), reader: createPostingsReader((sql) => db.prepare(sql)) };
}

/** A term's postings as [id, counts, length]. */
function postingsOf(db: Database.Database, reader: ReturnType<typeof createPostingsReader>, term: string) {
  const stored = reader.terms([term]).get(term);
  if (stored === undefined) return undefined;
  const row = db.prepare('SELECT id, skips FROM postings_terms WHERE term = ?').get(term) as { id: number; skips: Buffer };
  return decodeSkips(row.skips).flatMap((block) => {
    const [[, bytes]] = reader.rows(row.id, block.key, 1) as [[number, Uint8Array]];
    return readPostings(bytes.subarray(block.offset, block.offset + block.length)).map((posting) => [posting.id, Array.from(posting.counts), posting.length]);
  });
}

const terms = (ids: number[], counts: number[], length: number) => ({ ids: new Uint32Array(ids), counts: new Uint32Array(counts), length });

describe('createPostingsReader rows', () => {
  it('reads one row by its key, several as a range, and from the next key of the term when the asked one is missing', () => {
    const { db, reader } = store();
    const insert = db.prepare('INSERT INTO postings (id, data) VALUES (?, ?)');
    // Term 3: rows 0, 1 and 3 (a gap at 2); term 4: row 0.
    for (const [termId, key] of [[3, 0], [3, 1], [3, 3], [4, 0]] as const) insert.run(rowIdOf(termId, key), Buffer.from([termId, key]));
    const read = (termId: number, fromKey: number, limit: number) => reader.rows(termId, fromKey, limit).map(([key, bytes]) => [key, Array.from(bytes)]);
    expect(read(3, 0, 1)).toEqual([[0, [3, 0]]]);
    expect(read(3, 3, 1)).toEqual([[3, [3, 3]]]);
    expect(read(3, 2, 1)).toEqual([[3, [3, 3]]]);
    expect(read(3, 0, 8)).toEqual([[0, [3, 0]], [1, [3, 1]], [3, [3, 3]]]);
    expect(read(3, 1, 2)).toEqual([[1, [3, 1]], [3, [3, 3]]]);
    // Past the term's last row: nothing, not the next term's first.
    expect(read(3, 4, 1)).toEqual([]);
    expect(read(4, 0, 1)).toEqual([[0, [4, 0]]]);
  });
});

describe('createPostingsWriter', () => {
  it('maps the term numbers of each dictionary to its terms, across dictionaries and flushes', () => {
    const { db, writer, reader } = store();
    writer.defineTerms({ source: 'a', first: 0, terms: ['job', 'retri'] });
    writer.defineTerms({ source: 'b', first: 0, terms: ['retri'] });
    writer.add(1, 'a', terms([0, 1], [0, 0, 0, 2, 0, 1, 0, 0, 0, 0], 3));
    writer.add(2, 'b', terms([0], [0, 0, 0, 1, 0], 1));
    writer.flush();
    writer.defineTerms({ source: 'b', first: 1, terms: ['job'] });
    writer.add(3, 'b', terms([1], [0, 0, 0, 4, 0], 4));
    writer.remove(1, 'a', terms([0, 1], [0, 0, 0, 2, 0, 1, 0, 0, 0, 0], 3));
    writer.flush();
    expect(reader.totals()).toEqual({ chunks: 2, tokens: 5 });
    expect(postingsOf(db, reader, 'job')).toEqual([[3, [0, 0, 0, 4, 0], 4]]);
    expect(postingsOf(db, reader, 'retri')).toEqual([[2, [0, 0, 0, 1, 0], 1]]);
  });

  it('names the dictionary and the numbers when terms are used before they are defined', () => {
    const { writer } = store();
    expect(() => writer.add(1, 'worker-3', terms([0], [0, 0, 0, 1, 0], 1))).toThrow(
      new AtlasError('internal', 'Atlas: the postings writer has no terms of dictionary worker-3. Call defineTerms with its new terms before adding its chunks.'),
    );
    writer.defineTerms({ source: 'worker-3', first: 0, terms: ['job'] });
    expect(() => writer.add(1, 'worker-3', terms([1], [0, 0, 0, 1, 0], 1))).toThrow(
      "Atlas: the postings writer has 1 terms of dictionary worker-3, a chunk uses number 1. Define each page's new terms (NewTerms) in order, also of pages skipped.",
    );
    expect(() => writer.defineTerms({ source: 'worker-3', first: 5, terms: ['retri'] })).toThrow(
      "Atlas: dictionary worker-3 defines terms from number 5, the postings writer expected 1. Define each page's new terms in the order they were numbered.",
    );
  });
});

describe('createPostingsWriter removing', () => {
  /** Each block of `term`: its count and its bytes (hex), by row. */
  const blocksOf = (db: Database.Database, term: string) => {
    const row = db.prepare('SELECT id, skips FROM postings_terms WHERE term = ?').get(term) as { id: number; skips: Buffer };
    const data = db.prepare('SELECT data FROM postings WHERE id = ?').pluck();
    return decodeSkips(row.skips).map((block) => {
      const bytes = data.get(rowIdOf(row.id, block.key)) as Buffer;
      return { key: block.key, count: block.count, hex: bytes.subarray(block.offset, block.offset + block.length).toString('hex') };
    });
  };

  it('rewrites only the blocks holding a removed chunk, and packs a row again once its blocks are less than half full', () => {
    const { db, writer, reader } = store();
    const chunk = (id: number) => terms([0], [0, 0, 0, 1 + (id % 3), 0], 10 + (id % 7));
    writer.defineTerms({ source: 's', first: 0, terms: ['job'] });
    // 2,200 postings: row 0 holds blocks 0-15 (ids 1-2048), row 1 blocks 16 and 17 (128 and 24).
    for (let id = 1; id <= 2200; id += 1) writer.add(id, 's', chunk(id));
    writer.flush();
    const before = blocksOf(db, 'job');
    expect(before.map((block) => block.count)).toEqual([...Array(17).fill(128), 24]);

    writer.remove(5, 's', chunk(5));
    writer.flush();
    const after = blocksOf(db, 'job');
    expect(after.map((block) => block.count)).toEqual([127, ...Array(16).fill(128), 24]);
    expect(after.slice(1)).toEqual(before.slice(1));
    expect(after[0]!.hex).not.toBe(before[0]!.hex);

    // Three of every four of row 0's chunks removed: 512 left in 16 blocks, packed into 4 full ones.
    for (let id = 1; id <= 2048; id += 1) if (id % 4 !== 0 && id !== 5) writer.remove(id, 's', chunk(id));
    writer.flush();
    const packed = blocksOf(db, 'job');
    expect(packed.map((block) => [block.key, block.count])).toEqual([[0, 128], [0, 128], [0, 128], [0, 128], [1, 128], [1, 24]]);
    expect(packed.slice(4)).toEqual(before.slice(16));
    const kept = [...Array.from({ length: 512 }, (_, n) => 4 * (n + 1)), ...Array.from({ length: 152 }, (_, n) => 2049 + n)];
    expect(postingsOf(db, reader, 'job')).toEqual(kept.map((id) => [id, [0, 0, 0, 1 + (id % 3), 0], 10 + (id % 7)]));
    expect(reader.terms(['job']).get('job')!.df).toBe(664);
  });
});

describe('createPostingsWriter flushing as it goes', () => {
  /** Chunks 1..count with Zipf-like terms (term t in about 1 of t+1 chunks, counts 1-3 in random columns), seeded. */
  function chunks(count: number, vocabulary: number, seed: number) {
    let state = seed;
    const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
    return Array.from({ length: count }, (_, n) => {
      const ids: number[] = [];
      const counts: number[] = [];
      for (let term = 0; term < vocabulary; term += 1) {
        if (random() * (term + 1) >= 1) continue;
        ids.push(term);
        const row = [0, 0, 0, 0, 0];
        row[Math.floor(random() * 5)] = 1 + Math.floor(random() * 3);
        counts.push(...row);
      }
      return { id: n + 1, terms: terms(ids, counts, 10 + Math.floor(random() * 90)) };
    });
  }
  // The store's rows by term and row key (term ids are numbered in the order terms are first flushed).
  const tables = (db: Database.Database) => ({
    postings: db
      .prepare('SELECT t.term, p.id % 1048576 AS key, hex(p.data) AS data FROM postings p JOIN postings_terms t ON t.id = p.id / 1048576 ORDER BY t.term, key')
      .all(),
    rows: db.prepare('SELECT count(*) FROM postings').pluck().get(),
    terms: db.prepare('SELECT term, df, hex(skips) AS skips FROM postings_terms ORDER BY term').all(),
    totals: db.prepare('SELECT chunks, tokens FROM postings_totals').all(),
  });
  const vocabulary = Array.from({ length: 120 }, (_, n) => `t${n}`);

  it('stores the same rows as one flush at the end, into a new store and into one holding terms', () => {
    // 2,200 chunks: the commonest term fills a row of 2,048 postings and starts another.
    const first = chunks(1500, vocabulary.length, 7);
    const second = chunks(700, vocabulary.length, 11).map((chunk) => ({ ...chunk, id: chunk.id + 1500 }));
    const build = (flushBytes?: number) => {
      const db = new Database(':memory:');
      open.push(db);
      db.exec(POSTINGS_TABLES);
      for (const batch of [first, second]) {
        // A writer per ingest: the second one finds the first one's terms stored.
        const writer = createPostingsWriter(createSqlitePostingsTables(db), flushBytes === undefined ? {} : { flushBytes });
        writer.defineTerms({ source: 's', first: 0, terms: vocabulary });
        for (const chunk of batch) writer.add(chunk.id, 's', chunk.terms);
        writer.flush();
      }
      return db;
    };
    const onceDb = build();
    // The layout itself: each term's postings in id order, blocks of 128 (the last may be
    // shorter), 16 blocks to a row.
    const reader = createPostingsReader((sql) => onceDb.prepare(sql));
    for (const [term, name] of vocabulary.entries()) {
      const expected = [...first, ...second].flatMap((chunk) => {
        const slot = Array.from(chunk.terms.ids).indexOf(term);
        return slot < 0 ? [] : [[chunk.id, Array.from(chunk.terms.counts.subarray(slot * 5, slot * 5 + 5)), chunk.terms.length]];
      });
      expect(postingsOf(onceDb, reader, name)).toEqual(expected);
      const skips = onceDb.prepare('SELECT skips FROM postings_terms WHERE term = ?').pluck().get(name) as Buffer;
      const blocks = decodeSkips(skips);
      expect(blocks.map((block) => block.count)).toEqual(blocks.map((_, n) => (n < blocks.length - 1 ? 128 : expected.length - 128 * n)));
      expect(blocks.map((block) => block.key)).toEqual(blocks.map((_, n) => Math.floor(n / 16)));
    }
    const once = tables(onceDb);
    expect(once.terms.length).toBe(120);
    expect(Math.max(...once.terms.map((term) => (term as { df: number }).df))).toBe(2200);
    expect(once.rows).toBe(121);
    // A flush after every chunk (the log's first segment is larger than 1 byte), each appending
    // to the terms' last rows: read, rewritten with the new postings.
    expect(tables(build(1))).toEqual(once);
  });
});
