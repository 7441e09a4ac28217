// The shared state of `atlas serve` replicas in the PostgreSQL database of the index: its tables,
// their schema version, and the pool the conversation store and the MCP session records use.
import type { Pool, PoolClient } from 'pg';
import { AtlasError } from '../errors.ts';
import { existingTables } from '../index/postgres/postgres-schema.ts';
import { inTransaction } from '../index/postgres/postgres-transaction.ts';
import { parsePostgresUrl, toPostgresError, type PostgresTarget } from '../index/postgres/postgres-url.ts';

/**
 * Version of the state tables below (their own counter, beside the index's `meta.schemaVersion`
 * and the SQLite state file's `STATE_SCHEMA_VERSION`); bump it, and say what to do with older
 * tables, whenever they change.
 */
export const POSTGRES_STATE_SCHEMA_VERSION = 1;

/** The state tables, dependents first (the order they are dropped in). */
export const POSTGRES_STATE_TABLES = ['state_mcp_sessions', 'state_queries', 'state_seen_passages', 'state_turns', 'state_conversations', 'state_meta'];

/**
 * The state tables, in the index's schema beside its own (all named `state_*`, so an
 * `atlas ingest --rebuild`, which drops the index's tables, keeps the conversations).
 * `state_conversations.turns` counts the stored turns: saving a turn increments it, which locks
 * the conversation's row until the turn's transaction ends, so turns saved at once get numbers
 * one after the other.
 */
const TABLES = `
CREATE TABLE state_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE state_conversations (
  id text PRIMARY KEY,
  created_at text NOT NULL,
  principal_groups text NOT NULL,
  filter text NOT NULL,
  owner text NOT NULL DEFAULT '',
  turns integer NOT NULL DEFAULT 0
);
CREATE TABLE state_turns (
  conversation_id text NOT NULL REFERENCES state_conversations(id) ON DELETE CASCADE,
  turn integer NOT NULL,
  question text NOT NULL,
  answer text NOT NULL,
  abstained boolean NOT NULL,
  citations text NOT NULL,
  trace text NOT NULL,
  started_at text NOT NULL,
  finished_at text NOT NULL,
  PRIMARY KEY (conversation_id, turn)
);
CREATE TABLE state_seen_passages (
  conversation_id text NOT NULL REFERENCES state_conversations(id) ON DELETE CASCADE,
  chunk_id text NOT NULL,
  texts text NOT NULL,
  source text NOT NULL,
  first_turn integer NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (conversation_id, chunk_id)
);
CREATE TABLE state_queries (
  conversation_id text NOT NULL REFERENCES state_conversations(id) ON DELETE CASCADE,
  turn integer NOT NULL,
  seq integer NOT NULL,
  query text NOT NULL,
  version text,
  page integer,
  note text,
  chunk_ids text NOT NULL,
  PRIMARY KEY (conversation_id, turn, seq)
);
CREATE TABLE state_mcp_sessions (
  id text PRIMARY KEY,
  owner text NOT NULL,
  client text NOT NULL,
  created_at bigint NOT NULL,
  last_used bigint NOT NULL,
  state text NOT NULL
);
CREATE INDEX state_mcp_sessions_by_client ON state_mcp_sessions (client, last_used);
`;

/** The state of a `postgres://` database, opened: run work on its pool, then close it. */
export interface PostgresState {
  readonly target: PostgresTarget;
  /** Runs `work` on the pool; failures become AtlasErrors naming the database (never the password). */
  run<T>(work: (pool: Pool) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction on one connection (committed when it resolves, rolled back when it throws). */
  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
  /** Ends the pool (once: later calls wait for the same end). */
  close(): Promise<void>;
}

/** Options of {@link openPostgresState}. */
export interface PostgresStateOptions {
  /** The primary's URL (`--db`): `postgres://user:password@host:port/database?schema=name`. */
  url: string;
  /** Most connections at once (default 4). */
  maxConnections?: number;
}

/**
 * Connects to the database of `url` and prepares the state tables in its schema: a schema
 * without them gets them and `state_meta.schema_version`; one of another version is an
 * `state-schema` AtlasError naming the versions and the fix, and nothing is changed. Replicas
 * starting at once prepare one after the other (an advisory lock of the schema). `pg` is loaded
 * here, so SQLite users never load it.
 *
 * @example
 * const state = await openPostgresState({ url: 'postgres://atlas@db:5432/docs?schema=team_a' });
 * const store = createPostgresConversationStore(state);
 */
export async function openPostgresState(options: PostgresStateOptions): Promise<PostgresState> {
  const target = parsePostgresUrl(options.url);
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: target.connectionString, max: options.maxConnections ?? 4, options: `-c search_path=${target.schema}`, connectionTimeoutMillis: 15_000 });
  // Idle clients that lose their server emit here; the next query reports the failure itself.
  pool.on('error', () => {});
  let ended: Promise<void> | undefined;
  const state: PostgresState = {
    target,
    async run(work) {
      try {
        return await work(pool);
      } catch (error) {
        throw toPostgresError(error, target);
      }
    },
    transaction: (work) => state.run(() => inTransaction(pool, work)),
    // Both stores of a replica share one state: the first close ends the pool, the second has nothing left to do.
    close: () => (ended ??= pool.end()),
  };
  try {
    await state.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext(current_database() || $1 || ' state'))", [target.schema]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${target.schema}`);
      await prepareStateTables(client, target);
    });
  } catch (error) {
    await state.close();
    throw error;
  }
  return state;
}

async function prepareStateTables(client: PoolClient, target: PostgresTarget): Promise<void> {
  const found = await existingTables(client, POSTGRES_STATE_TABLES);
  if (found.length === 0) {
    await client.query(TABLES);
    await client.query("INSERT INTO state_meta (key, value) VALUES ('schema_version', $1)", [String(POSTGRES_STATE_SCHEMA_VERSION)]);
    return;
  }
  const row = found.includes('state_meta') ? (await client.query<{ value: string }>("SELECT value FROM state_meta WHERE key = 'schema_version'")).rows[0] : undefined;
  if (row?.value === String(POSTGRES_STATE_SCHEMA_VERSION)) return;
  const version = Number(row?.value);
  const where = `schema "${target.schema}" of ${target.shown}`;
  const fix =
    Number.isInteger(version) && version > POSTGRES_STATE_SCHEMA_VERSION
      ? 'They were written by a newer Atlas: upgrade Atlas on every replica.'
      : `Drop them to start with no conversations (DROP TABLE ${POSTGRES_STATE_TABLES.join(', ')}), or serve with --state PATH to keep conversations in an SQLite file instead.`;
  throw new AtlasError('state-schema', `Atlas: the conversation state tables in ${where} have schema version ${row?.value ?? 'none'}; this Atlas reads version ${POSTGRES_STATE_SCHEMA_VERSION}. ${fix}`);
}
