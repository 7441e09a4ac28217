import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AtlasError } from '../errors.ts';
import { readPostings } from './postings-codec.ts';
import { decodeSkips } from './postings-skips.ts';
import { createPostingsReader, POSTINGS_TABLES } from './postings-store.ts';
import { createPostingsWriter } from './postings-writer.ts';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

function store() {
  const db = new Database(':memory:');
  open.push(db);
  db.exec(POSTINGS_TABLES);
  return { db, writer: createPostingsWriter(db), reader: createPostingsReader((sql) => db.prepare(sql)) };
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
