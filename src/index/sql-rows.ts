import type Database from 'better-sqlite3';
import type { Chunk } from '../corpus/types.ts';
import { withLazySnippet } from './snippet.ts';
import type { TokenizerOptions } from './analysis/tokenize.ts';
import type { Hit } from './types.ts';

/** A row of the `chunks` table as {@link CHUNK_COLUMNS} selects it. */
export interface ChunkRow {
  chunk_id: string;
  doc_id: string;
  ord: number;
  title: string;
  heading: string;
  heading_path: string;
  text: string;
  applies_to: string;
  labels: string;
  source_path: string;
  start_line: number;
  end_line: number;
  prev_chunk_id: string | null;
  next_chunk_id: string | null;
}

/** The columns of a {@link ChunkRow}, from the `chunks` table aliased `c`. */
export const CHUNK_COLUMNS = `c.chunk_id, c.doc_id, c.ord, c.title, c.heading, c.heading_path, c.text, c.applies_to,
  c.labels, c.source_path, c.start_line, c.end_line, c.prev_chunk_id, c.next_chunk_id`;

/**
 * The {@link Chunk} of a row (JSON columns parsed, absent links left out).
 *
 * @example
 * const chunk = chunkFromRow(db.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.chunk_id = ?`).get('a#0'));
 */
export function chunkFromRow(row: ChunkRow): Chunk {
  const chunk: Chunk = {
    chunkId: row.chunk_id,
    docId: row.doc_id,
    title: row.title,
    heading: row.heading,
    headingPath: JSON.parse(row.heading_path) as string[],
    text: row.text,
    appliesTo: row.applies_to,
    ord: row.ord,
    labels: JSON.parse(row.labels) as Chunk['labels'],
    sourcePath: row.source_path,
    startLine: row.start_line,
    endLine: row.end_line,
  };
  if (row.prev_chunk_id !== null) chunk.prevChunkId = row.prev_chunk_id;
  if (row.next_chunk_id !== null) chunk.nextChunkId = row.next_chunk_id;
  return chunk;
}

/**
 * The {@link Hit} of a row with its score, its snippet made from `terms` when first read (see
 * {@link withLazySnippet}).
 *
 * @example
 * const hit = hitFromRow(row, 7.2, ['retry'], DEFAULT_TOKENIZER);
 */
export function hitFromRow(row: ChunkRow, score: number, terms: string[], tokenizer: TokenizerOptions): Hit {
  const hit = chunkFromRow(row) as Omit<Hit, 'snippet' | 'snippetHeadingPath'>;
  hit.score = score;
  return withLazySnippet(hit, terms, tokenizer);
}

/** Prepared statements by SQL text (filters change the SQL shape), owned by one index. */
export interface StatementCache {
  get(sql: string): Database.Statement;
}

/**
 * A {@link StatementCache} over one database.
 *
 * @example
 * const statements = createStatementCache(db);
 * statements.get('SELECT count(*) FROM chunks').pluck().get();
 */
export function createStatementCache(db: Database.Database): StatementCache {
  const cache = new Map<string, Database.Statement>();
  return {
    get(sql: string): Database.Statement {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}
