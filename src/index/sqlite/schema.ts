import type Database from 'better-sqlite3';
import { AtlasError } from '../../errors.ts';
import { DEFAULT_TOKENIZER, type TokenizerOptions } from '../analysis/tokenize.ts';
import { computeIndexVersion } from '../index-version.ts';
import { POSTINGS_TABLE_NAMES, POSTINGS_TABLES } from '../engine/postings-store.ts';

/**
 * Version of the on-disk layout below; bump it (and say how to rebuild) whenever it changes.
 * 2: the FTS table gained the `heading_path` column; chunks `definitions`; new `definitions_fts`.
 * 3: the postings store (postings-store.ts) replaces the FTS table `chunks_fts`.
 * 4: text without spaces is indexed as words (Han and kana bigrams and characters, Thai, Lao,
 *    Khmer, Myanmar through Intl.Segmenter: analysis/spaceless-tokens.ts); an index of version 3
 *    holds whole clauses as one token, which no query would match.
 * 5: Hangul is read as bigrams too (scripts.ts): a version 4 index holds each Korean word with
 *    its particle (`수도는`) as one token, which a query of the word alone (`수도`) never matched.
 * 6: a combining mark continues its word (fts5-unicode.ts `readMarks`): a version 5 index
 *    holds a Hindi, Bengali or Tamil word cut at each vowel sign (`किला` as `क` and `ल`), and an
 *    Arabic word with harakat cut at each.
 * Changing what definitions.ts reads as a definition changes stored content: bump it then too.
 */
export const SCHEMA_VERSION = 6;

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
 * What a database file holds, read without writing anything: no table yet (a new or empty file),
 * an Atlas index (a `meta` table with a `schemaVersion`, as every schema version has had), or the
 * tables of another application.
 */
export type IndexFileContent =
  | { kind: 'empty' }
  | { kind: 'atlas'; schemaVersion: string }
  | { kind: 'foreign'; tables: string[] };

/**
 * Reads what the database open as `db` holds ({@link IndexFileContent}); it writes nothing, so a
 * refused file stays byte for byte as it was. SQLite errors (a file that is not a database, a
 * damaged one) are thrown as they are.
 *
 * @example
 * readIndexFileContent(db); // { kind: 'foreign', tables: ['users', 'orders'] }
 */
export function readIndexFileContent(db: Database.Database): IndexFileContent {
  // In the order they were created (rowid), as the other application's schema lists them.
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
    .pluck()
    .all() as string[];
  if (tables.length === 0) return { kind: 'empty' };
  const version = tables.includes('meta') ? readMetaIfReadable(db, 'schemaVersion') : undefined;
  return version === undefined ? { kind: 'foreign', tables } : { kind: 'atlas', schemaVersion: version };
}

/** The meta value, or undefined when another application's `meta` table has no such columns. */
function readMetaIfReadable(db: Database.Database, key: string): string | undefined {
  try {
    return readMeta(db, key);
  } catch {
    return undefined;
  }
}

/** Table names shown in the message about another application's database. */
const SHOWN_TABLES = 8;

/**
 * The refusal of a database that is not an Atlas index: Atlas neither ingests into it nor
 * rebuilds over it (that would drop the other application's tables).
 *
 * @example
 * foreignDatabaseError('app.db', ['users', 'orders']).message;
 * // 'Atlas: the file at app.db is an SQLite database with tables users, orders, not an Atlas index, and Atlas will not write to it. Choose another --db path ...'
 */
export function foreignDatabaseError(path: string, tables: string[]): AtlasError {
  const shown = tables.slice(0, SHOWN_TABLES).join(', ');
  const more = tables.length > SHOWN_TABLES ? ` and ${tables.length - SHOWN_TABLES} more` : '';
  return new AtlasError(
    'usage',
    `Atlas: the file at ${path} is an SQLite database with table${tables.length === 1 ? '' : 's'} ${shown}${more}, not an Atlas index, and Atlas will not write to it. Choose another --db path for the index, e.g. --db .atlas/index.db`,
  );
}

/** What {@link prepareSchema} will do with a database: create the tables, keep them, or switch an empty index's tokenizer. */
type SchemaPlan =
  | { kind: 'create'; tokenizer: TokenizerOptions }
  | { kind: 'keep'; tokenizer: TokenizerOptions }
  | { kind: 'retokenize'; tokenizer: TokenizerOptions };

/**
 * Checks a database against what this Atlas needs, reading only: another application's
 * database, another schema version, or a tokenizer other than the one a non-empty index was
 * built with is an {@link AtlasError} naming the fix. A writer calls it before it changes anything
 * (not even the journal mode), so a refused file is left byte for byte as it was.
 *
 * @example
 * checkSchema(db, '.atlas/index.db', undefined); // throws, or returns what prepareSchema will do
 */
export function checkSchema(db: Database.Database, path: string, requested: Partial<TokenizerOptions> | undefined): SchemaPlan {
  const content = readIndexFileContent(db);
  if (content.kind === 'empty') return { kind: 'create', tokenizer: { ...DEFAULT_TOKENIZER, ...requested } };
  if (content.kind === 'foreign') throw foreignDatabaseError(path, content.tables);
  if (content.schemaVersion !== String(SCHEMA_VERSION)) {
    throw new AtlasError(
      'index-schema',
      `Atlas: the index at ${path} has schema version ${content.schemaVersion} but this Atlas needs ${SCHEMA_VERSION}. Rebuild it: atlas ingest <docs-dir> --db ${path} --rebuild`,
    );
  }
  const stored: TokenizerOptions = {
    ...DEFAULT_TOKENIZER,
    ...(JSON.parse(readMeta(db, 'tokenizer') ?? '{}') as Partial<TokenizerOptions>),
  };
  const wanted = { ...stored, ...requested };
  if (wanted.porter === stored.porter && wanted.identifiers === stored.identifiers) return { kind: 'keep', tokenizer: stored };
  const docCount = db.prepare('SELECT count(*) FROM docs').pluck().get() as number;
  if (docCount > 0) {
    throw new AtlasError(
      'index-schema',
      `Atlas: the index at ${path} was built with tokenizer ${JSON.stringify(stored)} but ${JSON.stringify(wanted)} was requested. Rebuild it: atlas ingest <docs-dir> --db ${path} --rebuild`,
    );
  }
  return { kind: 'retokenize', tokenizer: wanted };
}

/**
 * Creates the tables of a new database, or checks the schema version and tokenizer of an
 * existing one ({@link checkSchema}; see sqlite-open.ts, which opens the file). `requested` unset
 * means "whatever the index was built with" (defaults for a new one); set and different from a
 * non-empty index's, it is an error; on an empty index it replaces it. Another application's
 * database is refused. Returns the tokenizer the content uses.
 *
 * @example
 * const tokenizer = db.transaction(() => prepareSchema(db, path, undefined))();
 */
export function prepareSchema(
  db: Database.Database,
  path: string,
  requested: Partial<TokenizerOptions> | undefined,
): TokenizerOptions {
  const plan = checkSchema(db, path, requested);
  const { tokenizer } = plan;
  if (plan.kind === 'create') {
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);${TABLES}${ftsTables(tokenizer)}`);
    writeMeta(db, 'schemaVersion', String(SCHEMA_VERSION));
    writeMeta(db, 'tokenizer', JSON.stringify(tokenizer));
    writeMeta(db, 'indexVersion', computeIndexVersion([], tokenizer));
  } else if (plan.kind === 'retokenize') {
    db.exec(`${POSTINGS_TABLE_NAMES.map((name) => `DROP TABLE ${name};`).join('')}DROP TABLE definitions_fts;${ftsTables(tokenizer)}`);
    writeMeta(db, 'tokenizer', JSON.stringify(tokenizer));
    writeMeta(db, 'indexVersion', computeIndexVersion([], tokenizer));
  }
  return tokenizer;
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
