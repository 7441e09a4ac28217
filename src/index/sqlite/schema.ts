import type Database from 'better-sqlite3';
import { AtlasError } from '../../errors.ts';
import { DEFAULT_TOKENIZER, type TokenizerOptions } from '../analysis/tokenize.ts';
import { computeIndexVersion } from '../index-version.ts';
import { POSTINGS_TABLE_NAMES, POSTINGS_TABLES } from '../engine/postings-store.ts';

/**
 * Version of the on-disk layout below; bump it (and say how to rebuild) whenever it changes.
 * 2: the FTS table gained the `heading_path` column; chunks `definitions`; new `definitions_fts`.
 * 3: the postings store (postings-store.ts) replaces the FTS table `chunks_fts`.
 * Changing what definitions.ts reads as a definition changes stored content: bump it then too.
 */
export const SCHEMA_VERSION = 3;

/**
 * The secondary indexes of `chunks`, by name: a bulk ingest drops them and builds them again
 * after its inserts, which is faster than keeping them up to date row by row (ingest.ts).
 * `chunks_for_filters` is a narrow copy of what filters read, so filtered searches need not touch
 * the wide chunk rows.
 */
export const SECONDARY_INDEXES: ReadonlyArray<{ name: string; sql: string }> = [
  { name: 'chunks_by_doc', sql: 'CREATE INDEX chunks_by_doc ON chunks(doc_id, ord)' },
  { name: 'chunks_for_filters', sql: 'CREATE INDEX chunks_for_filters ON chunks(id, applies_to, chunk_id)' },
];

const TABLES = `
CREATE TABLE docs (
  doc_id TEXT PRIMARY KEY,
  content_hash TEXT NOT NULL,
  title TEXT NOT NULL,
  applies_to TEXT NOT NULL,
  source_path TEXT NOT NULL
);
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  chunk_id TEXT NOT NULL UNIQUE,
  doc_id TEXT NOT NULL REFERENCES docs(doc_id),
  ord INTEGER NOT NULL,
  title TEXT NOT NULL,
  heading TEXT NOT NULL,
  heading_path TEXT NOT NULL,
  text TEXT NOT NULL,
  applies_to TEXT NOT NULL,
  labels TEXT NOT NULL,
  source_path TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  prev_chunk_id TEXT,
  next_chunk_id TEXT,
  -- What the chunk defines (definitions.ts): JSON of its Definitions, or '' for none.
  definitions TEXT NOT NULL
);
${SECONDARY_INDEXES.map((index) => `${index.sql};`).join('\n')}
CREATE TABLE chunk_labels (
  chunk_id TEXT NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (chunk_id, name, value)
) WITHOUT ROWID;
`;

/**
 * The tables whose content depends on the tokenizer: the postings store (postings-store.ts: the
 * searched columns title, heading, the headings of the heading path between them
 * (heading-path.ts), body and identifier expansions, tokenized as FTS5 would with `tokenizer`),
 * and the FTS5 table `definitions_fts` (rowid = chunks.id, contentless) of the keys of the
 * identifiers a chunk defines, apart so that they do not count in the BM25 length of the chunk.
 */
function ftsTables(tokenizer: TokenizerOptions): string {
  const tokenize = `${tokenizer.porter ? 'porter ' : ''}unicode61 remove_diacritics 2`;
  return `${POSTINGS_TABLES}
  CREATE VIRTUAL TABLE definitions_fts USING fts5(keys, content='', contentless_delete=1, tokenize='${tokenize}');`;
}

/**
 * Creates the tables of a new database, or checks the schema version and tokenizer of an
 * existing one (see sqlite-open.ts, which opens the file). `requested` unset means "whatever the
 * index was built with" (defaults for a new one); set and different from a non-empty index's, it
 * is an error; on an empty index it replaces it. Returns the tokenizer the content uses.
 *
 * @example
 * const tokenizer = db.transaction(() => prepareSchema(db, path, undefined))();
 */
export function prepareSchema(
  db: Database.Database,
  path: string,
  requested: Partial<TokenizerOptions> | undefined,
): TokenizerOptions {
  const existingTables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .pluck()
    .all() as string[];
  if (existingTables.length === 0) {
    const tokenizer = { ...DEFAULT_TOKENIZER, ...requested };
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);${TABLES}${ftsTables(tokenizer)}`);
    writeMeta(db, 'schemaVersion', String(SCHEMA_VERSION));
    writeMeta(db, 'tokenizer', JSON.stringify(tokenizer));
    writeMeta(db, 'indexVersion', computeIndexVersion([], tokenizer));
    return tokenizer;
  }
  const found = existingTables.includes('meta') ? readMeta(db, 'schemaVersion') : undefined;
  if (found !== String(SCHEMA_VERSION)) {
    throw new AtlasError(
      'index-schema',
      `Atlas: the index at ${path} has schema version ${found ?? 'none'} but this Atlas needs ${SCHEMA_VERSION}. Rebuild it: atlas ingest <docs-dir> --db ${path} --rebuild`,
    );
  }
  const stored: TokenizerOptions = {
    ...DEFAULT_TOKENIZER,
    ...(JSON.parse(readMeta(db, 'tokenizer') ?? '{}') as Partial<TokenizerOptions>),
  };
  const wanted = { ...stored, ...requested };
  if (wanted.porter === stored.porter && wanted.identifiers === stored.identifiers) return stored;
  const docCount = db.prepare('SELECT count(*) FROM docs').pluck().get() as number;
  if (docCount > 0) {
    throw new AtlasError(
      'index-schema',
      `Atlas: the index at ${path} was built with tokenizer ${JSON.stringify(stored)} but ${JSON.stringify(wanted)} was requested. Rebuild it: atlas ingest <docs-dir> --db ${path} --rebuild`,
    );
  }
  db.exec(`${POSTINGS_TABLE_NAMES.map((name) => `DROP TABLE ${name};`).join('')}DROP TABLE definitions_fts;${ftsTables(wanted)}`);
  writeMeta(db, 'tokenizer', JSON.stringify(wanted));
  writeMeta(db, 'indexVersion', computeIndexVersion([], wanted));
  return wanted;
}

/**
 * Drops every table (any schema version), virtual tables first.
 *
 * @example
 * dropEverything(db); // then prepareSchema(db, path, tokenizer) creates the current schema
 */
export function dropEverything(db: Database.Database): void {
  const tablesOfKind = (virtual: boolean): string[] =>
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND (sql LIKE 'CREATE VIRTUAL TABLE%') = ?`,
      )
      .pluck()
      .all(virtual ? 1 : 0) as string[];
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (const virtual of [true, false]) {
      for (const name of tablesOfKind(virtual)) db.exec(`DROP TABLE IF EXISTS "${name.replaceAll('"', '""')}"`);
    }
  })();
  db.pragma('foreign_keys = ON');
}

/** Reads one value of the meta table. */
export function readMeta(db: Database.Database, key: string): string | undefined {
  return db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
}

/** Writes one value of the meta table. */
export function writeMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
