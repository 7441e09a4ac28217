// The conversations state database: an SQLite file beside the index, schema versioned.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AtlasError } from '../errors.ts';

/**
 * Version of the state database's layout; bump it (and say what to do with older files)
 * whenever the tables below change.
 */
export const STATE_SCHEMA_VERSION = 2;

const TABLES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  principal_groups TEXT NOT NULL,
  filter TEXT NOT NULL,
  owner TEXT NOT NULL DEFAULT ''
);
CREATE TABLE turns (
  conversation_id TEXT NOT NULL REFERENCES conversations(id),
  turn INTEGER NOT NULL,
  question TEXT NOT NULL,
  answer TEXT NOT NULL,
  abstained INTEGER NOT NULL,
  citations TEXT NOT NULL,
  trace TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  PRIMARY KEY (conversation_id, turn)
);
CREATE TABLE seen_passages (
  conversation_id TEXT NOT NULL REFERENCES conversations(id),
  chunk_id TEXT NOT NULL,
  texts TEXT NOT NULL,
  source TEXT NOT NULL,
  first_turn INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, chunk_id)
);
CREATE TABLE queries (
  conversation_id TEXT NOT NULL REFERENCES conversations(id),
  turn INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  query TEXT NOT NULL,
  version TEXT,
  page INTEGER,
  note TEXT,
  chunk_ids TEXT NOT NULL,
  PRIMARY KEY (conversation_id, turn, seq)
);
`;

/**
 * The state database path of an index: `<index>.state.db` beside it (`:memory:` stays in memory).
 *
 * @example
 * stateDbPath('.atlas/index.db'); // '.atlas/index.db.state.db'
 */
export function stateDbPath(indexPath: string): string {
  return indexPath === ':memory:' || indexPath === '' ? ':memory:' : `${indexPath}.state.db`;
}

/**
 * Opens (creating when missing) the state database at `path` and checks its schema version: a
 * new file gets the tables and `meta.schema_version`; a file of another version, or an SQLite
 * file that is not a state database, is an {@link AtlasError} naming the path, the versions and
 * the fix. Nothing is changed in a file that fails the check.
 *
 * @example
 * const db = openStateDatabase('.atlas/index.db.state.db');
 */
export function openStateDatabase(path: string): Database.Database {
  const inMemory = path === ':memory:' || path === '';
  let db: Database.Database;
  try {
    if (!inMemory) mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: 5_000 });
  } catch (error) {
    throw stateError(error, path);
  }
  try {
    // Checked before the journal mode is set: a refused file (an index, another application's) stays byte for byte as it was.
    const version = stateSchemaVersion(db, path);
    if (!inMemory) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    prepareTables(db, version);
  } catch (error) {
    db.close();
    throw stateError(error, path);
  }
  return db;
}

/**
 * The schema version of a state database, reading only: undefined for a new (empty) file, 1 or
 * the current version; an index, another application's database or another version is an
 * {@link AtlasError}, and nothing is written.
 */
function stateSchemaVersion(db: Database.Database, path: string): number | undefined {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((row) => row.name);
  if (tables.length === 0) return undefined;
  const meta = (key: string) => (tables.includes('meta') ? (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined) : undefined);
  const row = meta('schema_version');
  if (row === undefined) {
    const what = meta('schemaVersion') === undefined ? 'an SQLite file but not an Atlas state database (no meta.schema_version)' : 'an Atlas index, not a state database';
    throw new AtlasError('state-schema', `Atlas: ${path} is ${what}. Move it away, or pass another state path, and Atlas starts a new one.`);
  }
  const version = Number(row.value);
  if (version === STATE_SCHEMA_VERSION || version === 1) return version;
  const fix =
    Number.isInteger(version) && version > STATE_SCHEMA_VERSION
      ? 'It was written by a newer Atlas: upgrade Atlas, or move the file away to start with no conversations.'
      : 'Move the file away to start with no conversations (this Atlas cannot read it).';
  throw new AtlasError('state-schema', `Atlas: the state database ${path} has schema version ${row.value}; this Atlas reads version ${STATE_SCHEMA_VERSION}. ${fix}`);
}

/** Creates the tables of a new state database (`version` undefined), or upgrades a version 1 file in place. */
function prepareTables(db: Database.Database, version: number | undefined): void {
  if (version === undefined) {
    db.transaction(() => {
      db.exec(TABLES);
      db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(STATE_SCHEMA_VERSION));
    })();
  } else if (version === 1) {
    // Version 2 records who created a conversation (the token's name); a version 1 conversation has no owner and stays keyed by its groups alone.
    db.transaction(() => {
      db.exec("ALTER TABLE conversations ADD COLUMN owner TEXT NOT NULL DEFAULT ''");
      db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(STATE_SCHEMA_VERSION));
    })();
  }
}

/** SQLite failures as AtlasErrors naming the state file; AtlasErrors pass through. */
function stateError(error: unknown, path: string): unknown {
  if (error instanceof AtlasError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const cause = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_NOTADB') {
    return new AtlasError('state-schema', `Atlas: ${path} is not an SQLite database (${cause}). Move it away, or pass another state path.`, { cause: error });
  }
  return new AtlasError('state-io', `Atlas: cannot open the state database ${path} (${cause}). Check that its folder exists and is writable, or pass another state path.`, { cause: error });
}
