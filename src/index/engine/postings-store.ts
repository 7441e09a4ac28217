import type Database from 'better-sqlite3';
import { skipWords } from './postings-skips.ts';

/**
 * The postings store: Atlas's own inverted index in three tables of the index file, written in
 * the ingest's transaction by postings-writer.ts (so an ingest stays atomic) and read by
 * postings-search.ts.
 * - `postings_terms`: per term (a token as the FTS5 tokenizer emits it) its id, document
 *   frequency and the skip entries of its blocks (postings-skips.ts);
 * - `postings`: rows of up to ROW_BLOCKS (postings-skips.ts) blocks, rowid = {@link rowIdOf} (row
 *   keys increase with the ids they hold), so a term's rows are one rowid range;
 * - `postings_totals`: chunk and token counts (BM25's N and average length) and the next term id.
 */
export const POSTINGS_TABLES = `
CREATE TABLE postings_terms (term TEXT PRIMARY KEY, id INTEGER NOT NULL, df INTEGER NOT NULL, skips BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE postings (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE postings_totals (one INTEGER PRIMARY KEY CHECK (one = 1), chunks INTEGER NOT NULL, tokens INTEGER NOT NULL, next_term_id INTEGER NOT NULL);
INSERT INTO postings_totals VALUES (1, 0, 0, 1);
`;

/** The tables of {@link POSTINGS_TABLES}, for whoever drops them (a rebuild for another tokenizer). */
export const POSTINGS_TABLE_NAMES = ['postings_terms', 'postings', 'postings_totals'] as const;

/** Row keys per term: the rowid of a term's row is term id * ROW_KEYS + row key ({@link rowIdOf}). */
export const ROW_KEYS = 2 ** 20;

/**
 * The rowid in `postings` of row `key` of term `termId`.
 *
 * @example
 * rowIdOf(3, 0); // 3145728
 */
export function rowIdOf(termId: number, key: number): number {
  return termId * ROW_KEYS + key;
}

export type { ChunkTerms } from './chunk-terms.ts';

/** A term as the search reads it: id, document frequency, skip entries as 32-bit words. */
export interface StoredTerm {
  id: number;
  df: number;
  skips: Uint32Array;
}

/** Read access to the store, one statement per call (the caller holds a read transaction for a consistent view). */
export interface PostingsReader {
  totals(): { chunks: number; tokens: number };
  /** The stored terms among `terms`. */
  terms(terms: readonly string[]): Map<string, StoredTerm>;
  /** Up to `limit` rows of a term from row key `fromKey` on, in key order: [key, bytes]. */
  rows(termId: number, fromKey: number, limit: number): Array<[number, Uint8Array]>;
  /**
   * Natural logarithms as SQLite computes them (C's `log`, as FTS5's IDF does): JavaScript's
   * `Math.log` differs from it in the last bit for some values, which would change scores.
   */
  logs(values: readonly number[]): number[];
}

/**
 * The {@link PostingsReader} over the statements `prepare` gives (a statement cache, or `db.prepare`).
 *
 * @example
 * const reader = createPostingsReader((sql) => db.prepare(sql));
 * reader.terms(['retri', 'job']).get('job')?.df;
 */
export function createPostingsReader(prepare: (sql: string) => Database.Statement): PostingsReader {
  return {
    totals: () => prepare('SELECT chunks, tokens FROM postings_totals').get() as { chunks: number; tokens: number },
    terms(wanted) {
      const rows = prepare('SELECT term, id, df, skips FROM postings_terms WHERE term IN (SELECT value FROM json_each(?))').all(
        JSON.stringify(wanted),
      ) as Array<{ term: string; id: number; df: number; skips: Buffer }>;
      return new Map(rows.map((row) => [row.term, { id: row.id, df: row.df, skips: skipWords(row.skips) }]));
    },
    logs: (values) =>
      values.length === 0 ? [] : (prepare(`SELECT ${values.map(() => 'ln(?)').join(', ')}`).raw().get(...values) as number[]),
    rows(termId, fromKey, limit) {
      // A batch of one (a term's only row, or the row a cursor jumps to; it knows the key from the
      // skip entries): a look-up by rowid, 3.3-3.7 µs where the range costs 8.4-8.8 µs (10k bench index).
      if (limit === 1) {
        const row = prepare('SELECT data FROM postings WHERE id = ?').pluck().get(rowIdOf(termId, fromKey)) as Uint8Array | undefined;
        if (row !== undefined) return [[fromKey, row]];
      }
      return prepare(`SELECT id - ? * ${ROW_KEYS}, data FROM postings WHERE id >= ? AND id < ? ORDER BY id LIMIT ?`)
        .raw()
        .all(termId, rowIdOf(termId, fromKey), rowIdOf(termId + 1, 0), limit) as Array<[number, Uint8Array]>;
    },
  };
}
