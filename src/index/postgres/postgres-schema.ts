import type { ClientBase } from 'pg';
import { AtlasError } from '../../errors.ts';
import { computeIndexVersion } from '../index-version.ts';
import type { PostgresTarget } from './postgres-url.ts';
import { DEFAULT_TOKENIZER, type TokenizerOptions } from '../analysis/tokenize.ts';

/**
 * Version of the PostgreSQL layout below (its own counter: the SQLite file has another layout);
 * bump it, and say how to rebuild, whenever it changes.
 * 3: text without spaces is indexed as words (issue 41, analysis/spaceless-tokens.ts): a
 *    version 2 index holds a clause of Chinese as one token.
 * 4: Hangul is read as bigrams too (scripts.ts): a version 3 index holds each Korean word with
 *    its particle as one token.
 * 5: a combining mark continues its word (fts5-unicode.ts `readMarks`): a version 4 index
 *    holds a Hindi, Bengali or Tamil word cut at each vowel sign.
 */
export const POSTGRES_SCHEMA_VERSION = 5;

/** The tables of an index, in the order they are dropped (dependents first); the vector tables (postgres-vectors.ts) exist once a sync made them. */
const TABLE_NAMES = ['chunk_vectors', 'embeddings', 'lexemes', 'postings', 'postings_terms', 'postings_totals', 'chunk_labels', 'chunk_search', 'chunks', 'docs', 'meta'];

/**
 * The tables of one index, in the schema the connection's search_path names. `chunk_search` is
 * the narrow row filters read (the chunk id, what it applies to, the keys of what it defines,
 * GIN-indexed for definitions first); `chunks` holds the rest of a chunk, read only for the k
 * shown; its ids are given by the ingest (the next after the largest, as SQLite's rowids), so
 * both backends break score ties alike. The postings are Atlas's own (src/index/engine/, the same
 * blocks, skips and rows as the SQLite file): `postings_terms` per term its id, document
 * frequency and skip entries; `postings` the rows of blocks by term id and row key;
 * `postings_totals` BM25's chunk and token counts, the next term id, whether any chunk has an
 * `acl` label, and the generation, a new value with every ingest that changes the index (what a
 * search's cache is valid for: postgres-postings-cache.ts). An ingest writes all of them in its
 * transaction.
 */
const TABLES = `
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE docs (
  doc_id text PRIMARY KEY,
  content_hash text NOT NULL,
  title text NOT NULL,
  applies_to text NOT NULL,
  source_path text NOT NULL
);
CREATE TABLE chunks (
  id integer PRIMARY KEY,
  chunk_id text NOT NULL UNIQUE,
  doc_id text NOT NULL REFERENCES docs(doc_id) ON DELETE CASCADE,
  ord integer NOT NULL,
  title text NOT NULL,
  heading text NOT NULL,
  heading_path text NOT NULL,
  text text NOT NULL,
  applies_to text NOT NULL,
  labels text NOT NULL,
  source_path text NOT NULL,
  start_line integer NOT NULL,
  end_line integer NOT NULL,
  prev_chunk_id text,
  next_chunk_id text,
  definitions text NOT NULL
);
CREATE INDEX chunks_by_doc ON chunks (doc_id, ord);
CREATE TABLE chunk_search (
  id integer PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  chunk_id text NOT NULL,
  applies_to text NOT NULL,
  definition_keys text[] NOT NULL
);
CREATE INDEX chunk_search_definitions ON chunk_search USING gin (definition_keys);
CREATE TABLE chunk_labels (
  chunk_id text NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
  name text NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (chunk_id, name, value)
);
CREATE INDEX chunk_labels_by_name ON chunk_labels (name, value);
CREATE TABLE postings_terms (term text PRIMARY KEY, id integer NOT NULL, df integer NOT NULL, skips bytea NOT NULL);
CREATE TABLE postings (term_id integer NOT NULL, key integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (term_id, key));
ALTER TABLE postings ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE TABLE postings_totals (
  one integer PRIMARY KEY CHECK (one = 1),
  chunks integer NOT NULL,
  tokens bigint NOT NULL,
  next_term_id integer NOT NULL,
  restricted boolean NOT NULL,
  generation text NOT NULL
);
INSERT INTO postings_totals VALUES (1, 0, 0, 1, false, gen_random_uuid()::text);
`;

/** Options of {@link preparePostgresSchema}. */
export interface PrepareSchemaOptions {
  /** Tokenizer of a new or empty index; unset means "as the index was built". */
  tokenizer?: Partial<TokenizerOptions>;
  /** Whether a missing index may be created (writers); readers get an `index-missing` error. */
  create: boolean;
}

/**
 * Creates the tables of a new index in the connection's schema, or checks the schema version
 * and tokenizer of an existing one, with the same rules as the SQLite index (an index of
 * another version, or a tokenizer other than the one its content was built with, is an
 * `index-schema` error naming the rebuild). Returns the tokenizer the content uses. Run it in a
 * transaction: DDL is transactional in PostgreSQL.
 *
 * @example
 * const tokenizer = await preparePostgresSchema(client, target, { create: true });
 */
export async function preparePostgresSchema(client: ClientBase, target: PostgresTarget, options: PrepareSchemaOptions): Promise<TokenizerOptions> {
  const found = await existingTables(client, TABLE_NAMES);
  const rebuild = `Rebuild it: atlas ingest <docs-dir> --db ${target.shown} --rebuild`;
  if (found.length === 0) {
    if (!options.create) {
      throw new AtlasError('index-missing', `Atlas: no index in schema "${target.schema}" of ${target.shown}. Build it first: atlas ingest <docs-dir> --db ${target.shown}`);
    }
    return createTables(client, { ...DEFAULT_TOKENIZER, ...options.tokenizer });
  }
  const version = found.includes('meta') ? await readPostgresMeta(client, 'schemaVersion') : undefined;
  if (version !== String(POSTGRES_SCHEMA_VERSION)) {
    throw new AtlasError(
      'index-schema',
      `Atlas: the index in schema "${target.schema}" of ${target.shown} has schema version ${version ?? 'none'} but this Atlas needs ${POSTGRES_SCHEMA_VERSION}. ${rebuild}`,
    );
  }
  const stored: TokenizerOptions = { ...DEFAULT_TOKENIZER, ...(JSON.parse((await readPostgresMeta(client, 'tokenizer')) ?? '{}') as Partial<TokenizerOptions>) };
  const wanted = { ...stored, ...options.tokenizer };
  if (wanted.porter === stored.porter && wanted.identifiers === stored.identifiers) return stored;
  const docs = Number((await client.query<{ count: string }>('SELECT count(*) AS count FROM docs')).rows[0]!.count);
  if (docs > 0 || !options.create) {
    throw new AtlasError(
      'index-schema',
      `Atlas: the index in schema "${target.schema}" of ${target.shown} was built with tokenizer ${JSON.stringify(stored)} but ${JSON.stringify(wanted)} was requested. ${rebuild}`,
    );
  }
  await writePostgresMeta(client, 'tokenizer', JSON.stringify(wanted));
  await writePostgresMeta(client, 'indexVersion', computeIndexVersion([], wanted));
  return wanted;
}

/**
 * Drops the tables of an index in the connection's schema (any version), and the text search
 * objects that version 1 made.
 *
 * @example
 * await dropPostgresIndex(client); // then preparePostgresSchema creates the current layout
 */
export async function dropPostgresIndex(client: ClientBase): Promise<void> {
  for (const name of TABLE_NAMES) await client.query(`DROP TABLE IF EXISTS ${name} CASCADE`);
  await client.query('DROP TEXT SEARCH CONFIGURATION IF EXISTS atlas_english');
  await client.query('DROP TEXT SEARCH DICTIONARY IF EXISTS atlas_english_stem');
}

async function createTables(client: ClientBase, tokenizer: TokenizerOptions): Promise<TokenizerOptions> {
  await client.query(TABLES);
  await writePostgresMeta(client, 'schemaVersion', String(POSTGRES_SCHEMA_VERSION));
  await writePostgresMeta(client, 'tokenizer', JSON.stringify(tokenizer));
  await writePostgresMeta(client, 'indexVersion', computeIndexVersion([], tokenizer));
  return tokenizer;
}

/**
 * The tables of `names` that the connection's schema (`current_schema()`) holds, in no order:
 * none for a schema Atlas has not written yet.
 *
 * @example
 * await existingTables(client, ['meta', 'docs']); // ['meta', 'docs']
 */
export async function existingTables(client: Pick<ClientBase, 'query'>, names: readonly string[]): Promise<string[]> {
  const found = await client.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)', [
    names,
  ]);
  return found.rows.map((row) => row.name);
}

/**
 * Reads one value of the meta table.
 *
 * @example
 * await readPostgresMeta(pool, 'indexVersion'); // '3f5c…'
 */
export async function readPostgresMeta(client: Pick<ClientBase, 'query'>, key: string): Promise<string | undefined> {
  const result = await client.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]);
  return result.rows[0]?.value;
}

/**
 * Writes one value of the meta table.
 *
 * @example
 * await writePostgresMeta(client, 'docsRoot', '/home/me/site/docs');
 */
export async function writePostgresMeta(client: Pick<ClientBase, 'query'>, key: string, value: string): Promise<void> {
  await client.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}
