import type Database from 'better-sqlite3';
import type { Chunk, Doc } from '../corpus/types.ts';
import { definitionKeysText, definitionsOf } from './definitions.ts';
import { innerHeadingsText } from './heading-path.ts';
import { computeIndexVersion } from './index-version.ts';
import { readMeta, SECONDARY_INDEXES, writeMeta } from './schema.ts';
import { assertAclLabels } from './filter.ts';
import { assertUniqueDocIds } from './unique-docs.ts';
import { identifierExpansions, type TokenizerOptions } from './tokenize.ts';
import type { IngestReport } from './types.ts';

/**
 * Makes the index hold exactly `docs`, in one transaction: documents whose contentHash is
 * unchanged are skipped, changed ones replaced, new ones added, missing ones deleted. Any error
 * rolls everything back, so the previous index stays intact. Report lists are sorted.
 *
 * @example
 * const report = ingestDocs(db, docs, tokenizer); // { added: ['a'], updated: [], unchanged: [], removed: [], ... }
 */
export function ingestDocs(db: Database.Database, docs: Doc[], tokenizer: TokenizerOptions): IngestReport {
  assertUniqueDocIds(docs);
  assertAclLabels(docs);
  const writer = createWriter(db, tokenizer);
  const run = db.transaction((): IngestReport => {
    const existing = new Map(
      (db.prepare('SELECT doc_id, content_hash FROM docs').all() as Array<{ doc_id: string; content_hash: string }>).map(
        (row) => [row.doc_id, row.content_hash],
      ),
    );
    const report: IngestReport = { added: [], updated: [], unchanged: [], removed: [], chunks: 0, indexVersion: '' };
    const toInsert: Doc[] = [];
    for (const doc of docs) {
      const previousHash = existing.get(doc.docId);
      existing.delete(doc.docId);
      if (previousHash === doc.contentHash) {
        report.unchanged.push(doc.docId);
        continue;
      }
      if (previousHash === undefined) {
        report.added.push(doc.docId);
      } else {
        writer.deleteDoc(doc.docId);
        report.updated.push(doc.docId);
      }
      toInsert.push(doc);
    }
    for (const docId of existing.keys()) {
      writer.deleteDoc(docId);
      report.removed.push(docId);
    }
    insertAll(db, writer, toInsert);
    report.indexVersion = computeIndexVersion(docs, tokenizer);
    if (readMeta(db, 'indexVersion') !== report.indexVersion) writeMeta(db, 'indexVersion', report.indexVersion);
    report.chunks = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    for (const list of [report.added, report.updated, report.unchanged, report.removed]) list.sort();
    return report;
  });
  // IMMEDIATE: wait (busy timeout) for another writer instead of failing on a lock upgrade.
  return run.immediate();
}

/**
 * Bytes of pending terms FTS5 keeps in memory before it writes them as a segment (its
 * `hashsize`, 1 MB by default): fewer, larger segments to write and merge. 16 MB took about a
 * sixth off the inserts of 100k bench chunks for about 20 MB more peak RSS; 32 MB won little more.
 * A setting of the FTS tables, written inside the ingest's transaction.
 */
const FTS_HASH_BYTES = 16 * 1024 * 1024;

/** A bulk load inserts at least this many chunks, and at least as many as the index keeps. */
const BULK_MIN_CHUNKS = 2_000;

/**
 * Inserts the docs (deletions are done). A bulk load (a first ingest, a rebuild, or more new
 * chunks than the index keeps) drops the secondary indexes of `chunks` and builds them once after
 * the inserts: at 100k chunks that halves SQLite's share of the ingest (bench/run.ts). It runs
 * inside the ingest's transaction, so a failure rolls the indexes back with everything else.
 */
function insertAll(db: Database.Database, writer: ReturnType<typeof createWriter>, docs: Doc[]): void {
  const inserting = docs.reduce((sum, doc) => sum + doc.chunks.length, 0);
  const kept = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  const bulk = inserting >= BULK_MIN_CHUNKS && inserting >= kept;
  if (bulk) for (const index of SECONDARY_INDEXES) db.exec(`DROP INDEX ${index.name}`);
  if (inserting > 0) setFtsHashSize(db);
  for (const doc of docs) writer.insertDoc(doc);
  if (bulk) for (const index of SECONDARY_INDEXES) db.exec(index.sql);
}

/** Sets {@link FTS_HASH_BYTES} on both FTS tables, unless an earlier ingest did. */
function setFtsHashSize(db: Database.Database): void {
  for (const table of ['chunks_fts', 'definitions_fts']) {
    const current = db.prepare(`SELECT v FROM ${table}_config WHERE k = 'hashsize'`).pluck().get();
    // An integer literal: FTS5 rejects a bound value that better-sqlite3 sends as a float.
    if (current !== FTS_HASH_BYTES) db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${FTS_HASH_BYTES})`);
  }
}

function createWriter(db: Database.Database, tokenizer: TokenizerOptions) {
  const insertDocRow = db.prepare(
    'INSERT INTO docs (doc_id, content_hash, title, applies_to, source_path) VALUES (?, ?, ?, ?, ?)',
  );
  const insertChunkRow = db.prepare(
    `INSERT INTO chunks (chunk_id, doc_id, ord, title, heading, heading_path, text, applies_to, labels,
       source_path, start_line, end_line, prev_chunk_id, next_chunk_id, definitions)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFtsRow = db.prepare(
    'INSERT INTO chunks_fts (rowid, title, heading, heading_path, body, idents) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertDefinitionsRow = db.prepare('INSERT INTO definitions_fts (rowid, keys) VALUES (?, ?)');
  const insertLabel = db.prepare('INSERT OR IGNORE INTO chunk_labels (chunk_id, name, value) VALUES (?, ?, ?)');
  const deleteStatements = [
    'DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)',
    'DELETE FROM definitions_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ? AND definitions != \'\')',
    'DELETE FROM chunk_labels WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_id = ?)',
    'DELETE FROM chunks WHERE doc_id = ?',
    'DELETE FROM docs WHERE doc_id = ?',
  ].map((sql) => db.prepare(sql));

  let headingCache = new Map<string, string[]>();
  // Expansions of each identifier-like run, for the whole ingest.
  const expansionCache = new Map<string, string[]>();
  const insertChunk = (chunk: Chunk): void => {
    const definitions = tokenizer.identifiers ? definitionsOf(chunk, headingCache) : { headings: [], lines: [] };
    const keys = definitionKeysText(definitions);
    const { lastInsertRowid } = insertChunkRow.run(
      chunk.chunkId, chunk.docId, chunk.ord, chunk.title, chunk.heading, JSON.stringify(chunk.headingPath),
      chunk.text, chunk.appliesTo, JSON.stringify(chunk.labels), chunk.sourcePath, chunk.startLine,
      chunk.endLine, chunk.prevChunkId ?? null, chunk.nextChunkId ?? null, keys === '' ? '' : JSON.stringify(definitions),
    );
    const idents = tokenizer.identifiers ? identifierExpansions(`${chunk.heading}\n${chunk.text}`, expansionCache).join(' ') : '';
    insertFtsRow.run(lastInsertRowid, chunk.title, chunk.heading, innerHeadingsText(chunk), chunk.text, idents);
    if (keys !== '') insertDefinitionsRow.run(lastInsertRowid, keys);
    for (const [name, value] of Object.entries(chunk.labels)) {
      for (const one of Array.isArray(value) ? value : [value]) insertLabel.run(chunk.chunkId, name, one);
    }
  };

  return {
    insertDoc(doc: Doc): void {
      insertDocRow.run(doc.docId, doc.contentHash, doc.title, doc.appliesTo, doc.sourcePath);
      headingCache = new Map();
      for (const chunk of doc.chunks) insertChunk(chunk);
    },
    deleteDoc(docId: string): void {
      for (const statement of deleteStatements) statement.run(docId);
    },
  };
}
