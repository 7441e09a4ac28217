import type Database from 'better-sqlite3';
import { decodeSkips } from './postings-skips.ts';
import { firstBlockEndingAtOrAfter } from './postings-blocks.ts';
import { rowIdOf } from './postings-store.ts';

/** A term as the writer reads and writes it: id, document frequency, skip entries as stored. */
export interface TermRow {
  id: number;
  df: number;
  skips: Uint8Array;
}

/** BM25's totals and the next term id, as the writer keeps them. */
export interface PostingsTotals {
  chunks: number;
  tokens: number;
  nextTermId: number;
}

/**
 * What the postings writer (postings-writer.ts) reads and writes of the store, one call per row:
 * the SQLite tables through statements ({@link createSqlitePostingsTables}), or rows staged in
 * memory that another store loads before a flush and writes after it (PostgreSQL). A row is
 * named by its term id and row key.
 */
export interface PostingsTables {
  /** Whether the store held no term when the writer was made (a new index, a rebuild). */
  isEmpty(): boolean;
  term(term: string): TermRow | undefined;
  insertTerm(term: string, row: TermRow): void;
  updateTerm(term: string, df: number, skips: Uint8Array): void;
  deleteTerm(term: string): void;
  row(termId: number, key: number): Uint8Array | undefined;
  /** Stores a row; `bytes` may be a view of a buffer the writer reuses: copy what is kept. */
  putRow(termId: number, key: number, bytes: Uint8Array): void;
  deleteRow(termId: number, key: number): void;
  /** Deletes every row of a term. */
  deleteRows(termId: number): void;
  totals(): PostingsTotals;
  writeTotals(totals: PostingsTotals): void;
}

/**
 * The {@link PostingsTables} of an SQLite index file (postings-store.ts's tables), one prepared
 * statement per call.
 *
 * @example
 * const writer = createPostingsWriter(createSqlitePostingsTables(db));
 */
export function createSqlitePostingsTables(db: Database.Database): PostingsTables {
  const getTerm = db.prepare('SELECT id, df, skips FROM postings_terms WHERE term = ?');
  const insertTerm = db.prepare('INSERT INTO postings_terms (term, id, df, skips) VALUES (?, ?, ?, ?)');
  const updateTerm = db.prepare('UPDATE postings_terms SET df = ?, skips = ? WHERE term = ?');
  const deleteTerm = db.prepare('DELETE FROM postings_terms WHERE term = ?');
  const getRow = db.prepare('SELECT data FROM postings WHERE id = ?').pluck();
  const putRow = db.prepare('INSERT OR REPLACE INTO postings (id, data) VALUES (?, ?)');
  const deleteRow = db.prepare('DELETE FROM postings WHERE id = ?');
  const deleteRows = db.prepare('DELETE FROM postings WHERE id >= ? AND id < ?');
  const readTotals = db.prepare('SELECT chunks, tokens, next_term_id AS nextTermId FROM postings_totals');
  const writeTotals = db.prepare('UPDATE postings_totals SET chunks = ?, tokens = ?, next_term_id = ?');
  return {
    isEmpty: () => db.prepare('SELECT 1 FROM postings_terms LIMIT 1').get() === undefined,
    term: (term) => getTerm.get(term) as TermRow | undefined,
    insertTerm: (term, row) => void insertTerm.run(term, row.id, row.df, row.skips),
    updateTerm: (term, df, skips) => void updateTerm.run(df, skips, term),
    deleteTerm: (term) => void deleteTerm.run(term),
    row: (termId, key) => getRow.get(rowIdOf(termId, key)) as Uint8Array | undefined,
    // better-sqlite3 copies a bound blob.
    putRow: (termId, key, bytes) => void putRow.run(rowIdOf(termId, key), bytes),
    deleteRow: (termId, key) => void deleteRow.run(rowIdOf(termId, key)),
    deleteRows: (termId) => void deleteRows.run(rowIdOf(termId, 0), rowIdOf(termId + 1, 0)),
    totals: () => readTotals.get() as PostingsTotals,
    writeTotals: (totals) => void writeTotals.run(totals.chunks, totals.tokens, totals.nextTermId),
  };
}

/**
 * The row keys a flush reads of a stored term (its skip entries): the row of its last block (an
 * addition is appended there), and for `removed` ids the rows of the blocks that hold them and
 * the last row none of them is in (the term's last row once those are emptied). What a store
 * that cannot read during a flush loads before it (postgres-postings.ts).
 *
 * @example
 * rowKeysToRead(row.skips, [812]); // [0, 3]
 */
export function rowKeysToRead(skips: Uint8Array, removed: readonly number[]): number[] {
  const blocks = decodeSkips(skips);
  if (blocks.length === 0) return [];
  const keys = new Set<number>([blocks[blocks.length - 1]!.key]);
  for (const id of removed) {
    const at = firstBlockEndingAtOrAfter(blocks, id);
    if (at < blocks.length) keys.add(blocks[at]!.key);
  }
  if (removed.length > 0) {
    for (let at = blocks.length - 1; at >= 0; at -= 1) {
      if (keys.has(blocks[at]!.key)) continue;
      keys.add(blocks[at]!.key);
      break;
    }
  }
  return [...keys].sort((a, b) => a - b);
}
