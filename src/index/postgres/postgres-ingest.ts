import type { ClientBase } from 'pg';
import type { Doc } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import { assertAclLabels } from '../filter.ts';
import { computeIndexVersion } from '../index-version.ts';
import { textSearchConfig, writePostgresMeta } from './postgres-schema.ts';
import { chunkSearchTexts, type SearchTextCaches } from './postgres-text.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { IngestReport } from '../types.ts';
import { assertUniqueDocIds } from '../unique-docs.ts';

/** Chunks written per INSERT statement. */
const CHUNK_BATCH = 500;

/**
 * Makes the index hold exactly `docs`, inside the caller's transaction (it commits or rolls
 * back): unchanged documents (same contentHash) are not touched, so their rows and ids stay;
 * changed ones are replaced, new ones added, missing ones deleted; the document frequencies of
 * BM25 and the index version follow. Checks (unique ids, acl groups) run before anything is written.
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
  await deleteDocs(client, [...updated, ...removed]);
  const written = docs.filter((doc) => existing.get(doc.docId) !== doc.contentHash);
  await insertDocs(client, written, tokenizer);
  await countLexemes(client, written.map((doc) => doc.docId), +1);
  const indexVersion = computeIndexVersion(docs, tokenizer);
  const totals = (await client.query<{ chunks: number; tokens: string | null }>('SELECT count(*)::int AS chunks, sum(token_count) AS tokens FROM chunk_search')).rows[0]!;
  await writePostgresMeta(client, 'indexVersion', indexVersion);
  await writePostgresMeta(client, 'tokenTotal', String(totals.tokens ?? 0));
  await writePostgresMeta(client, 'chunkCount', String(totals.chunks));
  return { added: added.sort(), updated: updated.sort(), unchanged: unchanged.sort(), removed: removed.sort(), chunks: totals.chunks, indexVersion };
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

/** Deletes documents (their chunks and labels cascade), taking their lexemes out of the document frequencies first. */
async function deleteDocs(client: ClientBase, docIds: string[]): Promise<void> {
  if (docIds.length === 0) return;
  await countLexemes(client, docIds, -1);
  await client.query('DELETE FROM lexemes WHERE df <= 0');
  await client.query('DELETE FROM docs WHERE doc_id = ANY($1)', [docIds]);
}

/** Adds (`sign` 1) or subtracts (-1) the lexemes of these documents' chunks to the document frequencies. */
async function countLexemes(client: ClientBase, docIds: string[], sign: 1 | -1): Promise<void> {
  if (docIds.length === 0) return;
  await client.query(
    `INSERT INTO lexemes (lexeme, df)
     SELECT lexeme, ${sign} * count(*) FROM chunks c JOIN chunk_search s ON s.id = c.id, unnest(tsvector_to_array(s.tsv)) AS lexeme
     WHERE c.doc_id = ANY($1) GROUP BY lexeme
     ON CONFLICT (lexeme) DO UPDATE SET df = lexemes.df + excluded.df`,
    [docIds],
  );
}

async function insertDocs(client: ClientBase, docs: readonly Doc[], tokenizer: TokenizerOptions): Promise<void> {
  if (docs.length === 0) return;
  await client.query(
    `INSERT INTO docs (doc_id, content_hash, title, applies_to, source_path)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
    [docs.map((doc) => doc.docId), docs.map((doc) => doc.contentHash), docs.map((doc) => doc.title), docs.map((doc) => doc.appliesTo), docs.map((doc) => doc.sourcePath)],
  );
  const caches: SearchTextCaches = { expansions: new Map(), headings: new Map() };
  let batch = createChunkBatch();
  for (const doc of docs) {
    const texts = chunkSearchTexts(doc.chunks, tokenizer, caches);
    doc.chunks.forEach((chunk, position) => {
      const values = rowValues(chunk, texts[position]!);
      batch.columns.forEach((column, index) => column.push(values[index]));
      for (const [name, value] of Object.entries(chunk.labels)) {
        for (const one of Array.isArray(value) ? value : [value]) batch.labels.push([chunk.chunkId, name, one]);
      }
    });
    if (batch.columns[0]!.length >= CHUNK_BATCH) {
      await writeChunkBatch(client, batch, tokenizer);
      batch = createChunkBatch();
    }
  }
  await writeChunkBatch(client, batch, tokenizer);
}

/** The parameters of one multi-row insert: one array per column (see {@link rowValues}), and the label rows. */
interface ChunkBatch {
  columns: unknown[][];
  labels: Array<[string, string, string]>;
}

const CHUNK_COLUMN_TYPES = [
  'text', 'text', 'int', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'int', 'int', 'text', 'text', 'text',
  'text', 'int', 'text', 'text', 'text', 'text', 'text',
];

function createChunkBatch(): ChunkBatch {
  return { columns: CHUNK_COLUMN_TYPES.map(() => []), labels: [] };
}

/** One chunk's values in the order of {@link CHUNK_COLUMN_TYPES}; definition keys go as one space-joined text. */
function rowValues(chunk: Doc['chunks'][number], text: ReturnType<typeof chunkSearchTexts>[number]): unknown[] {
  return [
    chunk.chunkId, chunk.docId, chunk.ord, chunk.title, chunk.heading, JSON.stringify(chunk.headingPath), chunk.text,
    chunk.appliesTo, JSON.stringify(chunk.labels), chunk.sourcePath, chunk.startLine, chunk.endLine,
    chunk.prevChunkId ?? null, chunk.nextChunkId ?? null, text.definitionsJson, text.definitionKeys.join(' '), text.tokenCount,
    text.title, text.heading, text.innerHeadings, text.body, text.idents,
  ];
}

async function writeChunkBatch(client: ClientBase, batch: ChunkBatch, tokenizer: TokenizerOptions): Promise<void> {
  if (batch.columns[0]!.length === 0) return;
  const config = `'${textSearchConfig(tokenizer)}'::regconfig`;
  const params = CHUNK_COLUMN_TYPES.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
  const vector = (column: string, weight: string) => `setweight(to_tsvector(${config}, r.${column}), '${weight}')`;
  await client.query(
    `WITH r AS (SELECT * FROM unnest(${params}) AS r(chunk_id, doc_id, ord, title, heading, heading_path, text, applies_to, labels,
       source_path, start_line, end_line, prev_chunk_id, next_chunk_id, definitions, keys, token_count, w_title, w_heading, w_inner, w_body, w_idents)),
     inserted AS (
       INSERT INTO chunks (chunk_id, doc_id, ord, title, heading, heading_path, text, applies_to, labels, source_path,
         start_line, end_line, prev_chunk_id, next_chunk_id, definitions)
       SELECT chunk_id, doc_id, ord, title, heading, heading_path, text, applies_to, labels, source_path,
         start_line, end_line, prev_chunk_id, next_chunk_id, definitions FROM r
       RETURNING id, chunk_id)
     INSERT INTO chunk_search (id, chunk_id, applies_to, token_count, definition_keys, tsv)
     SELECT i.id, r.chunk_id, r.applies_to, r.token_count,
       CASE WHEN r.keys = '' THEN '{}'::text[] ELSE string_to_array(r.keys, ' ') END,
       ${vector('w_title', 'B')} || ${vector('w_heading', 'A')} || ${vector('w_inner', 'D')} || ${vector('w_body', 'C')} || ${vector('w_idents', 'C')}
     FROM r JOIN inserted i ON i.chunk_id = r.chunk_id`,
    batch.columns,
  );
  if (batch.labels.length === 0) return;
  await client.query(
    `INSERT INTO chunk_labels (chunk_id, name, value) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
    [batch.labels.map((row) => row[0]), batch.labels.map((row) => row[1]), batch.labels.map((row) => row[2])],
  );
}
