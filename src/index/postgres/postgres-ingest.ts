import type { ClientBase } from 'pg';
import type { Doc } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import { createPostingsWriter, type PostingsWriter } from '../engine/postings-writer.ts';
import { ACL_LABEL, assertAclLabels } from '../filter.ts';
import { computeIndexVersion } from '../index-version.ts';
import { createDeriveCaches, deriveDoc, termsOfChunk, type DeriveCaches, type DerivedChunkValues } from '../sqlite/ingest-writer.ts';
import { CHUNK_COLUMNS, chunkFromRow, type ChunkRow } from '../sql-rows.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { IngestReport } from '../types.ts';
import { assertUniqueDocIds } from '../unique-docs.ts';
import { createStagedPostings } from './postgres-postings.ts';
import { writePostgresMeta } from './postgres-schema.ts';

/** Chunks written per INSERT statement (a few MB of text). */
const CHUNK_BATCH = 2_000;

/**
 * Makes the index hold exactly `docs`, inside the caller's transaction (it commits or rolls
 * back): unchanged documents (same contentHash) are not touched, so their rows and ids stay;
 * changed ones are replaced, new ones added, missing ones deleted. A chunk's terms are derived
 * by the same code as in SQLite (ingest-writer.ts: the shared tokenizer, identifier expansions,
 * definitions), and Atlas's postings engine writes them (postgres-postings.ts); a new chunk
 * gets the id after the largest, as an SQLite rowid does. The rows go in multi-row statements
 * (unnest of one array per column), the postings in a few more at the end. Checks (unique ids, acl groups, NUL) run before anything
 * is written; an ingest that changes anything gives the index a new generation (what searches
 * cache postings for).
 *
 * @example
 * await client.query('BEGIN');
 * const report = await ingestPostgresDocs(client, docs, tokenizer);
 * await client.query('COMMIT');
 */
export async function ingestPostgresDocs(client: ClientBase, docs: readonly Doc[], tokenizer: TokenizerOptions): Promise<IngestReport> {
  assertUniqueDocIds(docs);
  assertAclLabels(docs);
  assertNoNul(docs);
  const existing = new Map(
    (await client.query<{ doc_id: string; content_hash: string }>('SELECT doc_id, content_hash FROM docs')).rows.map((row) => [row.doc_id, row.content_hash]),
  );
  const incoming = new Set(docs.map((doc) => doc.docId));
  const added: string[] = [];
  const updated: string[] = [];
  const unchanged: string[] = [];
  for (const doc of docs) {
    const hash = existing.get(doc.docId);
    (hash === undefined ? added : hash === doc.contentHash ? unchanged : updated).push(doc.docId);
  }
  const removed = [...existing.keys()].filter((docId) => !incoming.has(docId));
  const staged = await createStagedPostings(client);
  const writer = createPostingsWriter(staged.tables, { flushBytes: Infinity });
  const caches = createDeriveCaches('postgres-ingest');
  await deleteDocs(client, [...updated, ...removed], { writer, caches, tokenizer });
  const written = docs.filter((doc) => existing.get(doc.docId) !== doc.contentHash);
  await insertDocs(client, written, { writer, caches, tokenizer });
  await staged.load(writer);
  writer.flush();
  await staged.write();
  if (written.length > 0 || removed.length > 0) {
    await client.query(`UPDATE postings_totals SET generation = gen_random_uuid()::text, restricted = EXISTS (SELECT 1 FROM chunk_labels WHERE name = '${ACL_LABEL}')`);
  }
  const indexVersion = computeIndexVersion(docs, tokenizer);
  await writePostgresMeta(client, 'indexVersion', indexVersion);
  const chunks = staged.tables.totals().chunks;
  return { added: added.sort(), updated: updated.sort(), unchanged: unchanged.sort(), removed: removed.sort(), chunks, indexVersion };
}

/** What deriving and writing a chunk's postings needs. */
interface PostingsContext {
  writer: PostingsWriter;
  caches: DeriveCaches;
  tokenizer: TokenizerOptions;
}

/**
 * PostgreSQL text cannot hold U+0000 (the corpus reader refuses such files already; documents
 * built in code may still carry one): named here, before anything is written, instead of the
 * server's encoding error halfway through.
 */
function assertNoNul(docs: readonly Doc[]): void {
  for (const doc of docs) {
    for (const chunk of doc.chunks) {
      for (const [field, value] of [['title', chunk.title], ['heading', chunk.heading], ['text', chunk.text]] as const) {
        if (!value.includes('\u0000')) continue;
        throw new AtlasError(
          'invalid-corpus',
          `Atlas: chunk "${chunk.chunkId}" (${chunk.sourcePath}) has a NUL character (U+0000) in its ${field}, which PostgreSQL text cannot hold; nothing was written to the index. Remove it from the page.`,
        );
      }
    }
  }
}

/**
 * Deletes documents (their chunks and labels cascade), their chunks' postings removed first: a
 * chunk's terms are derived again from its stored row, the values its insert had.
 */
async function deleteDocs(client: ClientBase, docIds: string[], context: PostingsContext): Promise<void> {
  if (docIds.length === 0) return;
  const { writer, caches, tokenizer } = context;
  const rows = await client.query<ChunkRow & { id: number }>(`SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c WHERE c.doc_id = ANY($1::text[])`, [docIds]);
  for (const row of rows.rows) {
    const terms = termsOfChunk(chunkFromRow(row), tokenizer, caches);
    writer.defineTerms(caches.dictionary.takeNew());
    writer.remove(row.id, caches.dictionary.source, terms);
  }
  await client.query('DELETE FROM docs WHERE doc_id = ANY($1::text[])', [docIds]);
}

/** Inserts documents and their chunks (ids after the largest), their postings added to the writer. */
async function insertDocs(client: ClientBase, docs: readonly Doc[], context: PostingsContext): Promise<void> {
  if (docs.length === 0) return;
  const { writer, caches, tokenizer } = context;
  await client.query(
    `INSERT INTO docs (doc_id, content_hash, title, applies_to, source_path)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
    [docs.map((doc) => doc.docId), docs.map((doc) => doc.contentHash), docs.map((doc) => doc.title), docs.map((doc) => doc.appliesTo), docs.map((doc) => doc.sourcePath)],
  );
  let next = (await client.query<{ next: number }>('SELECT coalesce(max(id), 0) + 1 AS next FROM chunks')).rows[0]!.next;
  // The batch sent last: the next one is derived while the server writes it (one statement at a time on the connection).
  let sent: Promise<void> = Promise.resolve();
  const send = async (batch: ChunkBatch) => {
    await sent;
    sent = writeChunkBatch(client, batch);
    // Its failure is thrown by the next `send`; until then it is not unhandled.
    sent.catch(() => {});
  };
  let batch = createChunkBatch();
  for (const doc of docs) {
    const { values, terms } = deriveDoc(doc, tokenizer, caches);
    writer.defineTerms(terms);
    doc.chunks.forEach((chunk, position) => {
      const id = next++;
      writer.add(id, caches.dictionary.source, values[position]!.terms);
      const row = rowValues(id, chunk, values[position]!);
      batch.columns.forEach((column, index) => column.push(row[index]));
      for (const [name, value] of Object.entries(chunk.labels)) {
        for (const one of Array.isArray(value) ? value : [value]) batch.labels.push([chunk.chunkId, name, one]);
      }
    });
    if (batch.columns[0]!.length >= CHUNK_BATCH) {
      await send(batch);
      batch = createChunkBatch();
    }
  }
  await send(batch);
  await sent;
}

/** Writes one batch of chunk rows (and their search rows and labels). */
async function writeChunkBatch(client: ClientBase, batch: ChunkBatch): Promise<void> {
  if (batch.columns[0]!.length === 0) return;
  const texts = utf8Packed(batch.columns[TEXT_COLUMN] as string[]);
  await client.query(CHUNK_INSERT_SQL, [...batch.columns.filter((_, index) => index !== TEXT_COLUMN), texts.bytes, texts.starts, texts.lengths]);
  if (batch.labels.length === 0) return;
  await client.query(LABEL_INSERT_SQL, [batch.labels.map((row) => row[0]), batch.labels.map((row) => row[1]), batch.labels.map((row) => row[2])]);
}

/** The parameters of one multi-row insert: one array per column (see {@link rowValues}), and the label rows. */
interface ChunkBatch {
  columns: unknown[][];
  labels: Array<[string, string, string]>;
}

const CHUNK_COLUMN_TYPES = ['int', 'text', 'text', 'int', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'int', 'int', 'text', 'text', 'text', 'text'];
/**
 * The chunks' text, most of a batch's bytes, goes as one binary parameter of UTF-8 with where
 * each text starts and its length in bytes: an array of texts is escaped here and parsed again by
 * the server.
 */
const TEXT_COLUMN = 7;

/** Texts as one buffer of UTF-8, with the 1-based start and byte length of each. */
function utf8Packed(texts: readonly string[]): { bytes: Buffer; starts: number[]; lengths: number[] } {
  const lengths = texts.map((text) => Buffer.byteLength(text));
  const bytes = Buffer.allocUnsafe(lengths.reduce((sum, length) => sum + length, 0));
  const starts: number[] = [];
  let offset = 0;
  texts.forEach((text, n) => {
    bytes.write(text, offset);
    starts.push(offset + 1);
    offset += lengths[n]!;
  });
  return { bytes, starts, lengths };
}

function createChunkBatch(): ChunkBatch {
  return { columns: CHUNK_COLUMN_TYPES.map(() => []), labels: [] };
}

/** One chunk's values in the order of {@link CHUNK_COLUMN_TYPES}; definition keys go as one space-joined text. */
function rowValues(id: number, chunk: Doc['chunks'][number], values: DerivedChunkValues): unknown[] {
  return [
    id, chunk.chunkId, chunk.docId, chunk.ord, chunk.title, chunk.heading, values.headingPathJson, chunk.text,
    chunk.appliesTo, values.labelsJson, chunk.sourcePath, chunk.startLine, chunk.endLine,
    chunk.prevChunkId ?? null, chunk.nextChunkId ?? null, values.definitionsJson, values.definitionKeys,
  ];
}

const CHUNK_PARAMS = CHUNK_COLUMN_TYPES.filter((_, index) => index !== TEXT_COLUMN).map((type, index) => `$${index + 1}::${type}[]`);
const CHUNK_INSERT_SQL = `
WITH r AS (SELECT * FROM unnest(${CHUNK_PARAMS.join(', ')}, $${CHUNK_PARAMS.length + 2}::int[], $${CHUNK_PARAMS.length + 3}::int[])
  AS r(id, chunk_id, doc_id, ord, title, heading, heading_path, applies_to, labels, source_path, start_line, end_line,
       prev_chunk_id, next_chunk_id, definitions, keys, text_start, text_length)),
inserted AS (
  INSERT INTO chunks (id, chunk_id, doc_id, ord, title, heading, heading_path, text, applies_to, labels, source_path,
    start_line, end_line, prev_chunk_id, next_chunk_id, definitions)
  SELECT id, chunk_id, doc_id, ord, title, heading, heading_path, convert_from(substring($${CHUNK_PARAMS.length + 1}::bytea FROM text_start FOR text_length), 'UTF8'),
    applies_to, labels, source_path, start_line, end_line, prev_chunk_id, next_chunk_id, definitions FROM r)
INSERT INTO chunk_search (id, chunk_id, applies_to, definition_keys)
SELECT id, chunk_id, applies_to, CASE WHEN keys = '' THEN '{}'::text[] ELSE string_to_array(keys, ' ') END FROM r`;

const LABEL_INSERT_SQL = 'INSERT INTO chunk_labels (chunk_id, name, value) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING';
