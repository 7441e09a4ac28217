import type Database from 'better-sqlite3';
import type { Doc } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import { assertAclLabels } from '../filter.ts';
import { computeIndexVersion } from '../index-version.ts';
import type { NewTerms } from '../engine/chunk-terms.ts';
import { createIngestWriter, type DerivedChunkValues, type StoredChunk } from './ingest-writer.ts';
import { readMeta, SECONDARY_INDEXES, writeMeta } from './schema.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import { assertUniqueDocIds } from '../unique-docs.ts';
import type { IngestReport } from '../types.ts';

/**
 * Bytes of pending terms FTS5 keeps in memory before it writes them as a segment (its
 * `hashsize`, 1 MB by default): fewer, larger segments to write and merge. 16 MB took about a
 * sixth off the inserts of 100k bench chunks for about 20 MB more peak RSS; 32 MB won little more
 * (measured while the chunks' text was an FTS5 table too; `definitions_fts`, the one left, holds
 * far fewer terms). A setting of the table, written inside the ingest's transaction.
 */
const FTS_HASH_BYTES = 16 * 1024 * 1024;

/** A bulk load inserts at least this many chunks, and at least as many as the index kept. */
const BULK_MIN_CHUNKS = 2_000;

/** A document to ingest, with the values the index derives from its chunks when they were derived already (in a worker). */
export interface IngestItem {
  doc: Doc;
  /** One per chunk, derived with the index's tokenizer settings; absent: derived while inserting. Needs `terms`. */
  derived?: readonly DerivedChunkValues[];
  /**
   * The terms the deriving dictionary numbered first for this page (chunk-terms.ts): the
   * dictionary of `derived`'s term numbers. Given for every page a dictionary derived, also when
   * `derived` is left out or the page is unchanged: later pages of that dictionary use them.
   */
  terms?: NewTerms;
}

/** Options of {@link createIngestSession}. */
export interface IngestSessionOptions {
  /**
   * Every doc id this ingest will bring, when known before the first batch (an ingest of an
   * array): the documents it drops are then deleted before anything is inserted. Otherwise they
   * are deleted by {@link IngestSession.finish}, once the source is known to be complete.
   */
  knownDocIds?: ReadonlySet<string>;
}

/** An ingest in progress inside a transaction the caller opened: batches in, then the report. */
export interface IngestSession {
  /** Adds a batch of documents: unchanged ones are skipped, changed ones replaced, new ones inserted. */
  add(items: readonly IngestItem[]): void;
  /** Deletes the documents no batch brought, finishes a bulk load and returns the report; the caller commits. */
  finish(): IngestReport;
}

/**
 * Starts an ingest into `db`, which must be inside a write transaction the caller commits after
 * {@link IngestSession.finish} (or rolls back on any error: every check throws before the
 * document at fault is written, so nothing of a failed ingest survives the rollback).
 *
 * A bulk load (more new chunks than the index kept, and at least 2,000; a first ingest or a
 * rebuild) drops the secondary indexes of `chunks` once it is known to be one and builds them
 * again in {@link IngestSession.finish}: at 100k chunks that halves SQLite's share of the ingest
 * (bench/run.ts). Documents replaced or deleted after that point are found by the rowids read
 * just before the drop.
 *
 * @example
 * db.exec('BEGIN IMMEDIATE');
 * const session = createIngestSession(db, tokenizer);
 * session.add(docs.map((doc) => ({ doc })));
 * const report = session.finish();
 * db.exec('COMMIT');
 */
export function createIngestSession(db: Database.Database, tokenizer: TokenizerOptions, options: IngestSessionOptions = {}): IngestSession {
  const writer = createIngestWriter(db, tokenizer);
  const existing = new Map(
    (db.prepare('SELECT doc_id, content_hash FROM docs').all() as Array<{ doc_id: string; content_hash: string }>).map((row) => [row.doc_id, row.content_hash]),
  );
  const kept = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  const report: IngestReport = { added: [], updated: [], unchanged: [], removed: [], chunks: 0, indexVersion: '' };
  // Doc id -> source path of every document of the earlier batches.
  const seen = new Map<string, string>();
  const versions: Array<{ docId: string; contentHash: string }> = [];
  let inserted = 0;
  // Set once the secondary indexes are dropped: the stored chunks of the documents not seen yet.
  let stored: Map<string, StoredChunk[]> | undefined;

  const deleteDoc = (docId: string) => {
    if (stored === undefined) writer.deleteDoc(docId);
    else writer.deleteStoredDoc(docId, stored.get(docId) ?? []);
  };
  const startBulkLoad = () => {
    stored = new Map();
    const rows = db.prepare("SELECT doc_id, id, definitions != '' AS defines FROM chunks").all() as Array<{ doc_id: string; id: number; defines: number }>;
    for (const row of rows) {
      if (!existing.has(row.doc_id)) continue;
      let list = stored.get(row.doc_id);
      if (list === undefined) stored.set(row.doc_id, (list = []));
      list.push({ id: row.id, defines: row.defines === 1 });
    }
    for (const index of SECONDARY_INDEXES) db.exec(`DROP INDEX ${index.name}`);
  };
  const removeMissing = (keep: (docId: string) => boolean) => {
    for (const docId of [...existing.keys()]) {
      if (keep(docId)) continue;
      deleteDoc(docId);
      existing.delete(docId);
      report.removed.push(docId);
    }
  };

  if (options.knownDocIds !== undefined) {
    const known = options.knownDocIds;
    removeMissing((docId) => known.has(docId));
  }

  return {
    add(items) {
      const docs = items.map((item) => item.doc);
      assertUniqueDocIds(docs, seen);
      assertAclLabels(docs);
      const toInsert: IngestItem[] = [];
      let inserting = 0;
      for (const item of items) {
        const { doc } = item;
        if (item.terms !== undefined) writer.defineTerms(item.terms);
        versions.push({ docId: doc.docId, contentHash: doc.contentHash });
        const previousHash = existing.get(doc.docId);
        existing.delete(doc.docId);
        if (previousHash === doc.contentHash) {
          report.unchanged.push(doc.docId);
          continue;
        }
        if (previousHash === undefined) {
          report.added.push(doc.docId);
        } else {
          deleteDoc(doc.docId);
          report.updated.push(doc.docId);
        }
        toInsert.push(item);
        inserting += doc.chunks.length;
      }
      if (inserting === 0) return;
      if (inserted === 0) setFtsHashSize(db);
      inserted += inserting;
      if (stored === undefined && inserted >= BULK_MIN_CHUNKS && inserted >= kept) startBulkLoad();
      for (const item of toInsert) writer.insertDoc(item.doc, derivedOf(item));
    },
    finish() {
      removeMissing(() => false);
      writer.flush();
      if (stored !== undefined) for (const index of SECONDARY_INDEXES) db.exec(index.sql);
      report.indexVersion = computeIndexVersion(versions, tokenizer);
      if (readMeta(db, 'indexVersion') !== report.indexVersion) writeMeta(db, 'indexVersion', report.indexVersion);
      report.chunks = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
      for (const list of [report.added, report.updated, report.unchanged, report.removed]) list.sort();
      return report;
    },
  };
}

/** The derived values of `item` with the dictionary that numbered their terms, if it has both. */
function derivedOf(item: IngestItem): { source: string; values: readonly DerivedChunkValues[] } | undefined {
  if (item.derived === undefined) return undefined;
  if (item.terms === undefined) {
    throw new AtlasError('usage', `Atlas: the ingest item of ${item.doc.docId} has derived values but no terms (NewTerms) naming their dictionary. Pass both, as ingestItems makes them, or neither.`);
  }
  return { source: item.terms.source, values: item.derived };
}

/** Sets {@link FTS_HASH_BYTES} on `definitions_fts` (the one FTS table left), unless an earlier ingest did. */
function setFtsHashSize(db: Database.Database): void {
  const current = db.prepare("SELECT v FROM definitions_fts_config WHERE k = 'hashsize'").pluck().get();
  // An integer literal: FTS5 rejects a bound value that better-sqlite3 sends as a float.
  if (current !== FTS_HASH_BYTES) db.exec(`INSERT INTO definitions_fts (definitions_fts, rank) VALUES ('hashsize', ${FTS_HASH_BYTES})`);
}
