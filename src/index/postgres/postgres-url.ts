import { AtlasError } from '../../errors.ts';

/** What a `postgres://` URL says, parsed once: where to connect, which schema, and how to name it without the password. */
export interface PostgresTarget {
  /** The URL handed to `pg` (the `schema` parameter removed). */
  connectionString: string;
  host: string;
  port: number;
  database: string;
  user: string;
  /** The schema the index's tables live in (`?schema=`, default `public`). */
  schema: string;
  /** The URL as errors and logs show it: the password replaced by `***`. */
  shown: string;
  /** The password, so error text that somehow holds it can be scrubbed; never shown. */
  password: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Whether `db` (a `--db` value) names a PostgreSQL database rather than an SQLite file.
 *
 * @example
 * isPostgresUrl('postgres://atlas@localhost/docs'); // true
 * isPostgresUrl('.atlas/index.db');                 // false
 */
export function isPostgresUrl(db: string | undefined): db is string {
  return db !== undefined && /^postgres(ql)?:\/\//i.test(db.trim());
}

/**
 * Parses a `postgres://` or `postgresql://` URL: user, password, host (default localhost), port
 * (default 5432), database (default the user's name) and the Atlas-only `schema` parameter.
 * A malformed URL is a usage error that shows the URL without its password.
 *
 * @example
 * parsePostgresUrl('postgres://atlas:secret@db:5433/docs?schema=team_a').shown
 * // 'postgres://atlas:***@db:5433/docs?schema=team_a'
 */
export function parsePostgresUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new AtlasError(
      'usage',
      `Atlas: --db ${redactUrlText(url)} is not a valid PostgreSQL URL. Pass e.g. --db postgres://user:password@localhost:5432/docs (percent-encode special characters in the password).`,
    );
  }
  const password = decodeURIComponent(parsed.password);
  const user = decodeURIComponent(parsed.username);
  const schema = parsed.searchParams.get('schema') ?? 'public';
  const shownUrl = new URL(parsed.href);
  if (shownUrl.password !== '') shownUrl.password = '***';
  const shown = shownUrl.href.replace('%2A%2A%2A', '***');
  if (!SCHEMA_NAME.test(schema)) {
    throw new AtlasError(
      'usage',
      `Atlas: the schema "${schema}" of --db ${shown} is not a plain lower-case name. Use letters, digits and _ (e.g. ?schema=atlas_docs).`,
    );
  }
  parsed.searchParams.delete('schema');
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || user;
  const port = parsed.port === '' ? 5432 : Number(parsed.port);
  return { connectionString: parsed.href, host: parsed.hostname || 'localhost', port, database, user, schema, shown, password };
}

/**
 * `text` with the password of any URL in it replaced by `***`.
 *
 * @example
 * redactUrlText('failed on postgres://u:pw@h/d'); // 'failed on postgres://u:***@h/d'
 */
export function redactUrlText(text: string): string {
  return text.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*:)[^@\s]*@/gi, '$1***@');
}

/** PostgreSQL error codes (SQLSTATE) and Node socket codes of a failed connection, with what to check. */
const CONNECT_FIXES: Record<string, string> = {
  ECONNREFUSED: 'Check that the server is running and listens on that host and port.',
  ENOTFOUND: 'Check the host name of --db.',
  EAI_AGAIN: 'Check the host name of --db and the DNS.',
  ETIMEDOUT: 'Check that the host is reachable (firewall, network) and the port of --db.',
  EHOSTUNREACH: 'Check that the host is reachable (firewall, network).',
  '28P01': 'Check the user and password of --db.',
  '28000': 'Check the user of --db and the server\'s pg_hba.conf.',
  '3D000': 'Create the database (createdb) or fix the database name of --db.',
  '57P03': 'The server is starting up or shutting down; try again shortly.',
};

/**
 * An AtlasError for a connection that failed, naming host, port, database and user, the cause
 * and the fix; undefined when `error` is not a connection failure. The password never appears.
 *
 * @example
 * connectionError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), target)?.message
 * // 'Atlas: cannot connect to PostgreSQL at 127.0.0.1:1, database "docs" as user "atlas": connect ECONNREFUSED 127.0.0.1:1. Check that the server is running and listens on that host and port.'
 */
export function connectionError(error: unknown, target: PostgresTarget): AtlasError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const fix = typeof code === 'string' ? CONNECT_FIXES[code] : undefined;
  if (fix === undefined) return undefined;
  return new AtlasError(
    'index-io',
    `Atlas: cannot connect to PostgreSQL at ${target.host}:${target.port}, database "${target.database}" as user "${target.user}": ${scrub(errorText(error), target)}. ${fix}`,
  );
}

/**
 * Any failure of a PostgreSQL call as an AtlasError: AtlasErrors pass unchanged, connection
 * failures get {@link connectionError}, the rest name the database and the server's message.
 *
 * @example
 * throw toPostgresError(error, target);
 */
export function toPostgresError(error: unknown, target: PostgresTarget): AtlasError {
  if (error instanceof AtlasError) return error;
  return (
    connectionError(error, target) ??
    new AtlasError('index-io', `Atlas: PostgreSQL failed on ${target.shown} (schema "${target.schema}"): ${scrub(errorText(error), target)}.`)
  );
}

function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '') || String((error as { code?: unknown })?.code ?? 'unknown error');
}

function scrub(text: string, target: PostgresTarget): string {
  const redacted = redactUrlText(text);
  return target.password === '' ? redacted : redacted.split(target.password).join('***');
}
