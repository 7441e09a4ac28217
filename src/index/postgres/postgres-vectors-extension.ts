import type { ClientBase } from 'pg';
import { AtlasError } from '../../errors.ts';
import type { PostgresTarget } from './postgres-url.ts';

/** SQLSTATE of a privilege the user lacks (CREATE EXTENSION without the right). */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * The error of a PostgreSQL server without pgvector: the server (password hidden), what needs the
 * extension, and the two fixes (install the package of the server's major version and create the
 * extension as a superuser, or keep vectors in an SQLite index).
 *
 * @example
 * pgvectorMissing(target, 15).message
 * // 'Atlas: the PostgreSQL server of postgres://atlas@db:5432/docs has no pgvector extension, which vectors (--embed) need. ...'
 */
export function pgvectorMissing(target: PostgresTarget, majorVersion: number): AtlasError {
  return new AtlasError(
    'index-io',
    `Atlas: the PostgreSQL server of ${target.shown} has no pgvector extension, which vectors (--embed) need. Install it on the server (Debian/Ubuntu: apt install postgresql-${majorVersion}-pgvector) and run CREATE EXTENSION vector; as a superuser in database "${target.database}", or keep vectors in an SQLite index (--db .atlas/index.db).`,
  );
}

/**
 * The error of a server where pgvector is installed but not created in the database, and the
 * user may not create it.
 *
 * @example
 * pgvectorNotCreated(target, 'permission denied to create extension "vector"');
 */
export function pgvectorNotCreated(target: PostgresTarget, reason: string): AtlasError {
  return new AtlasError(
    'index-io',
    `Atlas: pgvector is installed on the PostgreSQL server of ${target.shown} but not created in database "${target.database}", and user "${target.user}" may not create it (${reason}). Run CREATE EXTENSION vector; as a superuser in database "${target.database}", or keep vectors in an SQLite index (--db .atlas/index.db).`,
  );
}

/** Where pgvector is created in a database, and its version. */
export interface PgvectorInstall {
  /** The schema it lives in, quoted for SQL (`"public"`). Types and operators are qualified with it, so an index in any schema finds them. */
  schema: string;
  /** `extversion`, e.g. `0.8.0`. */
  version: string;
  /** Whether HNSW scans can go on until k rows pass a filter (`hnsw.iterative_scan`, pgvector 0.8 on). */
  iterativeScan: boolean;
}

/**
 * pgvector as created in the connection's database, or undefined when it is not.
 *
 * @example
 * const install = await pgvectorInstall(client); // { schema: '"public"', version: '0.8.0', iterativeScan: true }
 * `embedding ${install.schema}.vector`
 */
export async function pgvectorInstall(client: Pick<ClientBase, 'query'>): Promise<PgvectorInstall | undefined> {
  const result = await client.query<{ schema: string; version: string }>(
    "SELECT n.nspname AS schema, e.extversion AS version FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
  );
  const row = result.rows[0];
  if (row === undefined) return undefined;
  const [major = 0, minor = 0] = row.version.split('.').map(Number);
  return { schema: `"${row.schema.replaceAll('"', '""')}"`, version: row.version, iterativeScan: major > 0 || minor >= 8 };
}

/**
 * Makes sure pgvector is created in the database (`CREATE EXTENSION IF NOT EXISTS vector` in
 * schema `public`, tried only when vectors are asked for) and returns where it is. A server
 * without the extension is {@link pgvectorMissing}; a user who may not create it,
 * {@link pgvectorNotCreated}. Run it in the transaction that creates the vector tables.
 *
 * @example
 * const { schema } = await ensurePgvector(client, target); // '"public"'
 */
export async function ensurePgvector(client: ClientBase, target: PostgresTarget): Promise<PgvectorInstall> {
  const existing = await pgvectorInstall(client);
  if (existing !== undefined) return existing;
  const available = await client.query<{ major: number }>(
    "SELECT (current_setting('server_version_num')::int / 10000) AS major, EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available",
  );
  const row = available.rows[0] as { major: number; available: boolean };
  if (!row.available) throw pgvectorMissing(target, row.major);
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
  } catch (error) {
    if ((error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE) throw pgvectorNotCreated(target, (error as Error).message);
    throw error;
  }
  const made = await pgvectorInstall(client);
  if (made === undefined) throw pgvectorMissing(target, row.major);
  return made;
}
