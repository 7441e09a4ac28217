import type Database from 'better-sqlite3';
import type { Chunk, Doc } from '../../corpus/types.ts';
import { definitionKeysText, definitionsOf } from '../analysis/definitions.ts';
import { innerHeadingsText } from '../heading-path.ts';
import { createTermDictionary, type ChunkTerms, type NewTerms, type TermDictionary } from '../engine/chunk-terms.ts';
import { createFts5Tokenizer, type Fts5Tokenizer } from '../analysis/fts5-tokens.ts';
import { createPostingsWriter } from '../engine/postings-writer.ts';
import { createSqlitePostingsTables } from '../engine/postings-tables.ts';
import { chunkFromRow, CHUNK_COLUMNS, type ChunkRow } from '../sql-rows.ts';
import { identifierExpansions } from '../analysis/identifier-expansions.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';

/**
 * The values of one chunk that the index computes rather than copies: what it defines, its
 * identifier expansions, its heading path and labels as JSON. Everything else of its rows is a
 * field of the chunk itself.
 */
export interface DerivedChunkValues {
  /** JSON of the chunk's heading path (`chunks.heading_path`). */
  headingPathJson: string;
  /** JSON of the chunk's labels (`chunks.labels`). */
  labelsJson: string;
  /** JSON of its Definitions, or '' when it defines nothing (`chunks.definitions`). */
  definitionsJson: string;
  /** The keys of what it defines, space-separated, or '' (`definitions_fts.keys`). */
  definitionKeys: string;
  /** Its terms in the postings store (of title, heading, the headings between, text and identifier expansions), numbered by the deriving dictionary. */
  terms: ChunkTerms;
}

/** Most headings whose definitions a {@link DeriveCaches} remembers before it starts over. */
const HEADING_CACHE_SIZE = 1 << 16;

/**
 * What one thread keeps while deriving values for an ingest: expansions of each identifier-like
 * run and what each heading defines (for the whole ingest; headings at most
 * {@link HEADING_CACHE_SIZE} at a time), the FTS5-equivalent tokenizers (with their stem caches)
 * by Porter setting, and the dictionary numbering the terms.
 */
export interface DeriveCaches {
  expansions: Map<string, string[]>;
  headings: Map<string, string[]>;
  tokenizers: Map<boolean, Fts5Tokenizer>;
  dictionary: TermDictionary;
}

/**
 * New caches for {@link deriveDocValues}, numbering terms in a dictionary named `source` (unique
 * within the process: the writer of an ingest must tell its sources apart).
 *
 * @example
 * const caches = createDeriveCaches('worker-1');
 */
export function createDeriveCaches(source: string): DeriveCaches {
  return { expansions: new Map(), headings: new Map(), tokenizers: new Map(), dictionary: createTermDictionary(source) };
}

/** Values derived for a document's chunks by the dictionary `terms.source`, with the terms it numbered first for them. */
export interface DerivedDoc {
  values: readonly DerivedChunkValues[];
  terms: NewTerms;
}

/**
 * The derived values of `doc` (see {@link deriveDocValues}) with the terms `caches` numbered for them.
 *
 * @example
 * const { values, terms } = deriveDoc(doc, DEFAULT_TOKENIZER, createDeriveCaches('local'));
 * terms.first; // 0
 */
export function deriveDoc(doc: Pick<Doc, 'chunks'>, tokenizer: TokenizerOptions, caches: DeriveCaches): DerivedDoc {
  const values = deriveDocValues(doc, tokenizer, caches);
  return { values, terms: caches.dictionary.takeNew() };
}

/** The tokenizer of `caches` for `tokenizer`'s Porter setting. */
function tokenizerOf(tokenizer: TokenizerOptions, caches: DeriveCaches): Fts5Tokenizer {
  let tokens = caches.tokenizers.get(tokenizer.porter);
  // No stem cache: the term dictionary remembers the term of each folded token (chunk-terms.ts).
  if (tokens === undefined) caches.tokenizers.set(tokenizer.porter, (tokens = createFts5Tokenizer({ porter: tokenizer.porter, stemCacheSize: 0, spaceless: 'ingest' })));
  return tokens;
}

/**
 * The same values with every chunk's term numbers and counts as views of one buffer: what a
 * worker posts, so that the writing thread gets one buffer per page instead of two per chunk
 * (fewer allocations there, and less memory held by the allocator).
 *
 * @example
 * const { values, terms } = deriveDoc(doc, DEFAULT_TOKENIZER, caches);
 * port.postMessage({ values: packTerms(values), terms });
 */
export function packTerms(values: readonly DerivedChunkValues[]): DerivedChunkValues[] {
  let total = 0;
  for (const value of values) total += value.terms.ids.length + value.terms.counts.length;
  const buffer = new Uint32Array(total);
  let at = 0;
  const view = (array: Uint32Array): Uint32Array => {
    buffer.set(array, at);
    at += array.length;
    return buffer.subarray(at - array.length, at);
  };
  return values.map((value) => ({ ...value, terms: { ids: view(value.terms.ids), counts: view(value.terms.counts), length: value.terms.length } }));
}

/**
 * The terms of a chunk as the postings store holds them.
 *
 * @example
 * termsOfChunk(chunk, DEFAULT_TOKENIZER, createDeriveCaches('local')).length; // tokens in all searched columns
 */
export function termsOfChunk(chunk: Chunk, tokenizer: TokenizerOptions, caches: DeriveCaches): ChunkTerms {
  const idents = tokenizer.identifiers ? identifierExpansions(`${chunk.heading}\n${chunk.text}`, caches.expansions).join(' ') : '';
  return caches.dictionary.chunkTerms([chunk.title, chunk.heading, innerHeadingsText(chunk), chunk.text, idents], tokenizerOf(tokenizer, caches));
}

/**
 * The derived values of each chunk of `doc`, in chunk order, as the index stores them with
 * `tokenizer`'s settings (without identifier support a chunk defines nothing and expands nothing).
 *
 * @example
 * deriveDocValues(doc, DEFAULT_TOKENIZER, createDeriveCaches('local')).length; // doc.chunks.length
 */
export function deriveDocValues(doc: Pick<Doc, 'chunks'>, tokenizer: TokenizerOptions, caches: DeriveCaches): DerivedChunkValues[] {
  // What a heading defines depends on the heading alone; headings recur across pages (`Usage`,
  // `Options`, the same section in every version of a page), so the cache lasts the ingest.
  if (caches.headings.size > HEADING_CACHE_SIZE) caches.headings.clear();
  return doc.chunks.map((chunk) => deriveChunkValues(chunk, tokenizer, caches));
}

function deriveChunkValues(chunk: Chunk, tokenizer: TokenizerOptions, caches: DeriveCaches): DerivedChunkValues {
  const definitions = tokenizer.identifiers ? definitionsOf(chunk, caches.headings) : { headings: [], lines: [] };
  const definitionKeys = definitionKeysText(definitions);
  return {
    headingPathJson: JSON.stringify(chunk.headingPath),
    labelsJson: JSON.stringify(chunk.labels),
    definitionsJson: definitionKeys === '' ? '' : JSON.stringify(definitions),
    definitionKeys,
    terms: termsOfChunk(chunk, tokenizer, caches),
  };
}

/** A chunk's rowid in `chunks` and whether it has a `definitions_fts` row. */
export interface StoredChunk {
  id: number;
  defines: boolean;
}

/** The prepared statements of one ingest: inserts of a document's rows, deletes by document or by rowid; postings written by {@link IngestWriter.flush}. */
export interface IngestWriter {
  /** The terms a dictionary numbered first for a page (in page order, also for pages not inserted). */
  defineTerms(terms: NewTerms): void;
  /** Inserts the document and its chunks; `derived` (one value per chunk, numbered by dictionary `source`) is computed here when absent. */
  insertDoc(doc: Doc, derived?: { source: string; values: readonly DerivedChunkValues[] }): void;
  /** Deletes a document and every row of its chunks, found through `chunks_by_doc`. */
  deleteDoc(docId: string): void;
  /** Deletes a document whose chunks are known by rowid: for a bulk load, which drops `chunks_by_doc`. */
  deleteStoredDoc(docId: string, chunks: readonly StoredChunk[]): void;
  /** Writes the postings collected so far (postings-store.ts); the ingest calls it before its commit. */
  flush(): void;
}

/**
 * The {@link IngestWriter} over `db`, deriving values with `tokenizer`'s settings.
 *
 * @example
 * const writer = createIngestWriter(db, tokenizer);
 * writer.deleteDoc('retries');
 * writer.insertDoc(retries);
 */
export function createIngestWriter(db: Database.Database, tokenizer: TokenizerOptions): IngestWriter {
  const insertDocRow = db.prepare(
    'INSERT INTO docs (doc_id, content_hash, title, applies_to, source_path) VALUES (?, ?, ?, ?, ?)',
  );
  const insertChunkRow = db.prepare(
    `INSERT INTO chunks (chunk_id, doc_id, ord, title, heading, heading_path, text, applies_to, labels,
       source_path, start_line, end_line, prev_chunk_id, next_chunk_id, definitions)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDefinitionsRow = db.prepare('INSERT INTO definitions_fts (rowid, keys) VALUES (?, ?)');
  const insertLabel = db.prepare('INSERT OR IGNORE INTO chunk_labels (chunk_id, name, value) VALUES (?, ?, ?)');
  const deleteByDoc = [
    'DELETE FROM definitions_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ? AND definitions != \'\')',
    'DELETE FROM chunk_labels WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_id = ?)',
    'DELETE FROM chunks WHERE doc_id = ?',
  ].map((sql) => db.prepare(sql));
  const deleteDocRow = db.prepare('DELETE FROM docs WHERE doc_id = ?');
  const chunksOfDoc = db.prepare(`SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c WHERE c.doc_id = ?`);
  const chunkById = db.prepare(`SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c WHERE c.id = ?`);
  const postings = createPostingsWriter(createSqlitePostingsTables(db));
  const deleteDefinitionsRow = db.prepare('DELETE FROM definitions_fts WHERE rowid = ?');
  const deleteLabelsOfRow = db.prepare('DELETE FROM chunk_labels WHERE chunk_id = (SELECT chunk_id FROM chunks WHERE id = ?)');
  const deleteChunkRow = db.prepare('DELETE FROM chunks WHERE id = ?');
  const caches = createDeriveCaches('ingest-writer');
  const source = caches.dictionary.source;
  // A deleted chunk's terms are derived again from its stored row: the same values its insert had.
  const removePostings = (row: (ChunkRow & { id: number }) | undefined) => {
    if (row === undefined) return;
    const terms = termsOfChunk(chunkFromRow(row), tokenizer, caches);
    postings.defineTerms(caches.dictionary.takeNew());
    postings.remove(row.id, source, terms);
  };

  const insertChunk = (chunk: Chunk, values: DerivedChunkValues, termSource: string): void => {
    const { lastInsertRowid } = insertChunkRow.run(
      chunk.chunkId, chunk.docId, chunk.ord, chunk.title, chunk.heading, values.headingPathJson,
      chunk.text, chunk.appliesTo, values.labelsJson, chunk.sourcePath, chunk.startLine,
      chunk.endLine, chunk.prevChunkId ?? null, chunk.nextChunkId ?? null, values.definitionsJson,
    );
    postings.add(Number(lastInsertRowid), termSource, values.terms);
    if (values.definitionKeys !== '') insertDefinitionsRow.run(lastInsertRowid, values.definitionKeys);
    for (const [name, value] of Object.entries(chunk.labels)) {
      for (const one of Array.isArray(value) ? value : [value]) insertLabel.run(chunk.chunkId, name, one);
    }
  };

  return {
    defineTerms: (terms) => postings.defineTerms(terms),
    insertDoc(doc, derived) {
      let values = derived?.values;
      if (values === undefined) {
        const here = deriveDoc(doc, tokenizer, caches);
        postings.defineTerms(here.terms);
        values = here.values;
      }
      const termSource = derived?.source ?? source;
      insertDocRow.run(doc.docId, doc.contentHash, doc.title, doc.appliesTo, doc.sourcePath);
      doc.chunks.forEach((chunk, position) => insertChunk(chunk, values[position]!, termSource));
    },
    deleteDoc(docId) {
      for (const row of chunksOfDoc.all(docId) as Array<ChunkRow & { id: number }>) removePostings(row);
      for (const statement of deleteByDoc) statement.run(docId);
      deleteDocRow.run(docId);
    },
    deleteStoredDoc(docId, chunks) {
      for (const chunk of chunks) {
        removePostings(chunkById.get(chunk.id) as (ChunkRow & { id: number }) | undefined);
        if (chunk.defines) deleteDefinitionsRow.run(chunk.id);
        deleteLabelsOfRow.run(chunk.id);
        deleteChunkRow.run(chunk.id);
      }
      deleteDocRow.run(docId);
    },
    flush: () => postings.flush(),
  };
}
