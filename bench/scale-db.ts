/**
 * The Atlas databases of bench/scale.ts, built once per size and kept in a cache folder across
 * runs (building 1M chunks takes minutes): `<cache>/atlas-<size>-<seed>-v<schema>.db`, written beside as
 * `.partial` and renamed when complete, so an interrupted build is never taken for a finished one.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DocumentSource } from '../src/corpus/parse-document.ts';
import { parsePagesStream } from '../src/corpus/workers/parse-pages.ts';
import { ingestItems, ingestPageWorker } from '../src/index/sqlite/ingest-items.ts';
import type { IngestItem } from '../src/index/sqlite/ingest-session.ts';
import { innerHeadingsText } from '../src/index/heading-path.ts';
import { ROW_BLOCKS } from '../src/index/engine/postings-skips.ts';
import { SCHEMA_VERSION } from '../src/index/sqlite/schema.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { chunkFromRow, CHUNK_COLUMNS, type ChunkRow } from '../src/index/sql-rows.ts';
import { identifierExpansions } from '../src/index/analysis/identifier-expansions.ts';
import { buildSearchQuery } from '../src/index/engine/query.ts';
import { DEFAULT_TOKENIZER, type TokenizerOptions } from '../src/index/analysis/tokenize.ts';
import { buildPages, type Passage } from './musique-corpus.ts';

/** The seed of the bench pages (the same as bench/run.ts). */
export const SCALE_SEED = 42;

/**
 * The path of the cached database of `size` chunks, building it first when absent (`log` gets
 * progress). Returns the path and whether it was built now.
 *
 * @example
 * const { path } = await cachedScaleDb({ cache: '/tmp/atlas-scale', size: 10_000, passages, log: console.error });
 */
export async function cachedScaleDb(options: {
  cache: string;
  size: number;
  passages: readonly Passage[];
  log: (line: string) => void;
}): Promise<{ path: string; built: boolean; buildMs?: number }> {
  const { cache, size, passages, log } = options;
  mkdirSync(cache, { recursive: true });
  // The schema version and the blocks per postings row in the name: a database of another
  // layout is never taken for this one.
  const path = join(cache, `atlas-${size}-${SCALE_SEED}-v${SCHEMA_VERSION}-r${ROW_BLOCKS}.db`);
  if (existsSync(path)) return { path, built: false };
  const partial = `${path}.partial`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
  log(`scale: building ${size} chunks into ${path} (cached for later runs)`);
  const start = performance.now();
  const pages = buildPages(passages, size, SCALE_SEED);
  const sources: DocumentSource[] = pages.map((page) => ({ path: page.path, bytes: Buffer.from(page.markdown) }));
  const index = createSqliteIndex({ path: partial, rebuild: true });
  await index.ingestStream(batches(sources, index.tokenizer));
  await index.close();
  renameSync(partial, path);
  const buildMs = performance.now() - start;
  log(`scale: built ${size} chunks in ${Math.round(buildMs / 1000)} s`);
  return { path, built: true, buildMs };
}

async function* batches(sources: DocumentSource[], tokenizer: TokenizerOptions): AsyncGenerator<IngestItem[]> {
  for await (const { results, extras } of parsePagesStream(sources, { worker: ingestPageWorker(tokenizer), releaseParsed: true })) {
    const docs = results.map((result) => {
      if (!result.ok) throw new Error(`bench page ${result.problems[0]?.file} did not parse: ${JSON.stringify(result.problems)}`);
      return result.doc;
    });
    yield ingestItems({ docs, ...(extras ? { extras } : {}) }, tokenizer);
  }
}

/**
 * Raw FTS5 beside the Atlas database at `atlasPath` (of `size` chunks, in `cache`):
 * `<cache>/fts5-<size>-<seed>-v<schema>.db` (the same for every postings row size) holding one FTS5
 * table `chunks_fts` of the same five columns Atlas ranks (title, heading, the headings between,
 * body, identifier expansions: derived from the stored chunks as the ingest derives them),
 * Atlas's tokenizer, and `chunks (id, chunk_id, applies_to)` for the filter. Built once and kept.
 * The reference both for raw FTS5's speed and for checking that Atlas's top k is FTS5's.
 *
 * @example
 * const reference = cachedReferenceDb({ atlasPath: path, cache: '/tmp/atlas-scale', size: 10_000, log: console.error }); // '/tmp/atlas-scale/fts5-10000-42-v3.db'
 */
export function cachedReferenceDb(options: { atlasPath: string; cache: string; size: number; log: (line: string) => void }): string {
  const { atlasPath, log } = options;
  const path = join(options.cache, `fts5-${options.size}-${SCALE_SEED}-v${SCHEMA_VERSION}.db`);
  if (existsSync(path)) return path;
  const partial = `${path}.partial`;
  rmSync(partial, { force: true });
  log(`scale: building the raw FTS5 reference ${path}`);
  const source = new Database(atlasPath, { readonly: true });
  const db = new Database(partial);
  db.pragma('journal_mode = OFF');
  db.exec(`CREATE TABLE chunks (id INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL, applies_to TEXT NOT NULL);
    CREATE VIRTUAL TABLE chunks_fts USING fts5(title, heading, heading_path, body, idents, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');`);
  const insertChunk = db.prepare('INSERT INTO chunks (id, chunk_id, applies_to) VALUES (?, ?, ?)');
  const insertFts = db.prepare('INSERT INTO chunks_fts (rowid, title, heading, heading_path, body, idents) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const chunk of rankedColumns(source)) {
      insertChunk.run(chunk.id, chunk.chunkId, chunk.appliesTo);
      insertFts.run(chunk.id, ...chunk.columns);
    }
  })();
  db.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')");
  db.close();
  source.close();
  renameSync(partial, path);
  return path;
}

/** A stored chunk as Atlas ranks it: its row id, chunk id, version and its five ranked columns' text. */
export interface RankedChunk {
  id: number;
  chunkId: string;
  appliesTo: string;
  /** Title, heading, the headings between, body, identifier expansions (the order of Atlas's column weights). */
  columns: [string, string, string, string, string];
}

/**
 * The chunks of the Atlas database `source` in id order, each with the five columns Atlas ranks
 * derived from the stored chunk as the ingest derives them: what the raw FTS5 reference and the
 * Lucene index are built from.
 *
 * @example
 * for (const chunk of rankedColumns(new Database(path, { readonly: true }))) insert(chunk.id, ...chunk.columns);
 */
export function* rankedColumns(source: Database.Database): Generator<RankedChunk> {
  const expansions = new Map<string, string[]>();
  for (const row of source.prepare(`SELECT ${CHUNK_COLUMNS}, c.id FROM chunks c ORDER BY c.id`).iterate() as Iterable<ChunkRow & { id: number }>) {
    const chunk = chunkFromRow(row);
    const idents = identifierExpansions(`${chunk.heading}\n${chunk.text}`, expansions).join(' ');
    yield { id: row.id, chunkId: chunk.chunkId, appliesTo: chunk.appliesTo, columns: [chunk.title, chunk.heading, innerHeadingsText(chunk), chunk.text, idents] };
  }
}

/**
 * The tokens Atlas ranks for a question: its search terms (query.ts) through the FTS5 tokenizer
 * `tokens`, one per phrase in query order.
 *
 * @example
 * rankedTokens('Where was the Tao Society of Artists founded?', createFts5Tokenizer({ porter: true })); // ['tao', 'societi', 'artist', 'found']
 */
export function rankedTokens(question: string, tokens: { tokens(text: string): string[] }): string[] {
  const built = buildSearchQuery(question, DEFAULT_TOKENIZER);
  return built === undefined ? [] : built.terms.flatMap((term) => tokens.tokens(term));
}
