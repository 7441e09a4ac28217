import type { ClientBase } from 'pg';
import { rowIdOf, ROW_KEYS } from '../engine/postings-store.ts';
import { rowKeysToRead, type PostingsTables, type PostingsTotals, type TermRow } from '../engine/postings-tables.ts';
import type { PostingsWriter } from '../engine/postings-writer.ts';

/** Bytes of rows (or skip entries) sent in one INSERT: a few statements for a large ingest, none of them huge. */
const WRITE_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * Atlas's postings (src/index/engine/) in the PostgreSQL tables of postgres-schema.ts, written
 * by the engine's own writer: the writer reads and writes {@link StagedPostings.tables}
 * synchronously, in memory; {@link StagedPostings.load} reads before a flush what the flush will
 * read (the terms it touches and the rows it rewrites: rowKeysToRead), and
 * {@link StagedPostings.write} sends what it wrote, a few multi-row statements (the bytes of
 * each as one binary parameter), in the caller's transaction.
 */
export interface StagedPostings {
  tables: PostingsTables;
  /** Reads what `writer`'s next flush reads (one statement for its terms, one for their rows). */
  load(writer: PostingsWriter): Promise<void>;
  /** Writes the rows, terms and totals the flushes changed. */
  write(): Promise<void>;
}

/**
 * The {@link StagedPostings} of the index `client` is in a transaction on.
 *
 * @example
 * const staged = await createStagedPostings(client);
 * const writer = createPostingsWriter(staged.tables, { flushBytes: Infinity });
 * writer.add(1, source, terms);
 * await staged.load(writer);
 * writer.flush();
 * await staged.write();
 */
export async function createStagedPostings(client: ClientBase): Promise<StagedPostings> {
  const stored = (
    await client.query<{ chunks: number; tokens: string; next_term_id: number; empty: boolean }>(
      'SELECT chunks, tokens, next_term_id, NOT EXISTS (SELECT 1 FROM postings_terms) AS empty FROM postings_totals',
    )
  ).rows[0]!;
  let totals: PostingsTotals = { chunks: stored.chunks, tokens: Number(stored.tokens), nextTermId: stored.next_term_id };
  let totalsChanged = false;
  // What was read (null: the store does not hold it), and what the flushes wrote (null: deleted).
  const terms = new Map<string, TermRow | null>();
  const termWrites = new Map<string, TermRow | null>();
  const rows = new Map<number, Uint8Array>();
  const rowWrites = new Map<number, Uint8Array | null>();
  const deletedTermIds = new Set<number>();

  const termOf = (term: string): TermRow | undefined => {
    const written = termWrites.get(term);
    if (written !== undefined) return written ?? undefined;
    return terms.get(term) ?? undefined;
  };
  const tables: PostingsTables = {
    isEmpty: () => stored.empty,
    term: termOf,
    insertTerm: (term, row) => void termWrites.set(term, row),
    updateTerm(term, df, skips) {
      termWrites.set(term, { id: termOf(term)!.id, df, skips });
    },
    deleteTerm: (term) => void termWrites.set(term, null),
    row(termId, key) {
      const rowId = rowIdOf(termId, key);
      const written = rowWrites.get(rowId);
      if (written !== undefined) return written ?? undefined;
      return deletedTermIds.has(termId) ? undefined : rows.get(rowId);
    },
    putRow: (termId, key, bytes) => void rowWrites.set(rowIdOf(termId, key), bytes.slice()),
    deleteRow: (termId, key) => void rowWrites.set(rowIdOf(termId, key), null),
    deleteRows(termId) {
      deletedTermIds.add(termId);
      for (const rowId of rowWrites.keys()) if (Math.floor(rowId / ROW_KEYS) === termId) rowWrites.delete(rowId);
    },
    totals: () => totals,
    writeTotals(next) {
      totals = next;
      totalsChanged = true;
    },
  };

  return {
    tables,
    async load(writer) {
      const pending = writer.pending().filter((entry) => !terms.has(entry.term) && !termWrites.has(entry.term));
      if (pending.length === 0) return;
      const found = await client.query<{ term: string; id: number; df: number; skips: Buffer }>(
        'SELECT term, id, df, skips FROM postings_terms WHERE term = ANY($1::text[])',
        [pending.map((entry) => entry.term)],
      );
      const byTerm = new Map(found.rows.map((row) => [row.term, row]));
      const wanted: Array<[number, number]> = [];
      for (const { term, removed } of pending) {
        const row = byTerm.get(term);
        terms.set(term, row === undefined ? null : { id: row.id, df: row.df, skips: row.skips });
        if (row === undefined) continue;
        for (const key of rowKeysToRead(row.skips, removed)) if (!rows.has(rowIdOf(row.id, key))) wanted.push([row.id, key]);
      }
      if (wanted.length === 0) return;
      const read = await client.query<{ term_id: number; key: number; data: Buffer }>(
        'SELECT p.term_id, p.key, p.data FROM postings p JOIN unnest($1::int[], $2::int[]) AS w(term_id, key) ON p.term_id = w.term_id AND p.key = w.key',
        [wanted.map((pair) => pair[0]), wanted.map((pair) => pair[1])],
      );
      for (const row of read.rows) rows.set(rowIdOf(row.term_id, row.key), row.data);
    },
    async write() {
      if (deletedTermIds.size > 0) await client.query('DELETE FROM postings WHERE term_id = ANY($1::int[])', [[...deletedTermIds]]);
      const deletedRows = [...rowWrites].filter(([, bytes]) => bytes === null).map(([rowId]) => rowId);
      if (deletedRows.length > 0) {
        await client.query('DELETE FROM postings p USING unnest($1::int[], $2::int[]) AS d(term_id, key) WHERE p.term_id = d.term_id AND p.key = d.key', [
          deletedRows.map((rowId) => Math.floor(rowId / ROW_KEYS)),
          deletedRows.map((rowId) => rowId % ROW_KEYS),
        ]);
      }
      const deletedTerms = [...termWrites].filter(([, row]) => row === null).map(([term]) => term);
      if (deletedTerms.length > 0) await client.query('DELETE FROM postings_terms WHERE term = ANY($1::text[])', [deletedTerms]);
      const putRows = [...rowWrites].filter((entry): entry is [number, Uint8Array] => entry[1] !== null);
      for (const batch of batches(putRows, ([, bytes]) => bytes.byteLength)) {
        const data = packed(batch.map(([, bytes]) => bytes));
        await client.query(
          `INSERT INTO postings (term_id, key, data)
           SELECT term_id, key, substring($3::bytea FROM start FOR length) FROM unnest($1::int[], $2::int[], $4::int[], $5::int[]) AS r(term_id, key, start, length)
           ON CONFLICT (term_id, key) DO UPDATE SET data = excluded.data`,
          [batch.map(([rowId]) => Math.floor(rowId / ROW_KEYS)), batch.map(([rowId]) => rowId % ROW_KEYS), data.bytes, data.starts, data.lengths],
        );
      }
      const putTerms = [...termWrites].filter((entry): entry is [string, TermRow] => entry[1] !== null);
      for (const batch of batches(putTerms, ([term, row]) => term.length + row.skips.byteLength + 16)) {
        const skips = packed(batch.map(([, row]) => row.skips));
        await client.query(
          `INSERT INTO postings_terms (term, id, df, skips)
           SELECT term, id, df, substring($4::bytea FROM start FOR length) FROM unnest($1::text[], $2::int[], $3::int[], $5::int[], $6::int[]) AS r(term, id, df, start, length)
           ON CONFLICT (term) DO UPDATE SET id = excluded.id, df = excluded.df, skips = excluded.skips`,
          [batch.map(([term]) => term), batch.map(([, row]) => row.id), batch.map(([, row]) => row.df), skips.bytes, skips.starts, skips.lengths],
        );
      }
      if (totalsChanged) {
        await client.query('UPDATE postings_totals SET chunks = $1, tokens = $2, next_term_id = $3', [totals.chunks, totals.tokens, totals.nextTermId]);
      }
      rowWrites.clear();
      termWrites.clear();
      deletedTermIds.clear();
      terms.clear();
      rows.clear();
      totalsChanged = false;
    },
  };
}

/**
 * Byte strings as one buffer, with where each starts (1-based, as SQL's `substring` counts) and
 * its length: `pg` sends a Buffer parameter in binary, where an array of byte strings would go
 * as hexadecimal text, twice the bytes, encoded here and parsed by the server.
 */
function packed(parts: readonly Uint8Array[]): { bytes: Buffer; starts: number[]; lengths: number[] } {
  const bytes = Buffer.allocUnsafe(parts.reduce((sum, part) => sum + part.byteLength, 0));
  const starts: number[] = [];
  const lengths: number[] = [];
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    starts.push(offset + 1);
    lengths.push(part.byteLength);
    offset += part.byteLength;
  }
  return { bytes, starts, lengths };
}

/** `items` in consecutive batches of about {@link WRITE_BATCH_BYTES} each by `size`. */
function batches<T>(items: readonly T[], size: (item: T) => number): T[][] {
  const result: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    current.push(item);
    bytes += size(item);
    if (bytes >= WRITE_BATCH_BYTES) {
      result.push(current);
      current = [];
      bytes = 0;
    }
  }
  if (current.length > 0) result.push(current);
  return result;
}
