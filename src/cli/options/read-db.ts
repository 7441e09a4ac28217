// `--read-db`: a PostgreSQL streaming standby serves a command's searches and reads, while ingest
// and the conversations go to the `--db` primary (docs/postgres.md, "Read replicas").
import { Option } from 'commander';
import { AtlasError } from '../../errors.ts';
import { isPostgresUrl, redactUrlText } from '../../index/postgres/postgres-url.ts';
import { nonEmpty } from './option-values.ts';

/** The `--db` default, as messages name it (options.ts's DEFAULT_DB; not imported: options.ts imports this file). */
const DEFAULT_DB = '.atlas/index.db';

/**
 * `--read-db URL`: a PostgreSQL streaming standby (a read replica of the `--db` primary) that
 * serves the searches and reads of the command; ingest and conversations stay on `--db`.
 *
 * @example
 * command.addOption(dbOption()).addOption(readDbOption());
 */
export function readDbOption(): Option {
  return new Option('--read-db <url>', 'a PostgreSQL standby (postgres://...) that serves searches and reads; conversations stay on --db, the primary').argParser(
    nonEmpty('--read-db', 'postgres://atlas@standby:5432/docs'),
  );
}

/**
 * The PostgreSQL URL a command's index is read from: `--read-db` (a standby of the `--db`
 * primary) when given, else `--db` when it is a PostgreSQL URL; undefined for an SQLite file. A
 * `--read-db` that is not a PostgreSQL URL, beside a `--db` that is not one, or given to a
 * command that writes the index, is a usage error naming the fix.
 *
 * @example
 * indexUrl('postgres://atlas@primary/docs', 'postgres://atlas@standby/docs', false); // 'postgres://atlas@standby/docs'
 */
export function indexUrl(db: string | undefined, readDb: string | undefined, write: boolean): string | undefined {
  if (readDb === undefined) return isPostgresUrl(db) ? db : undefined;
  if (!isPostgresUrl(readDb)) {
    throw new AtlasError('usage', `Atlas: --read-db must be a postgres:// URL of a standby of --db, got "${redactUrlText(readDb)}" (e.g. --read-db postgres://atlas@standby:5432/docs).`);
  }
  if (!isPostgresUrl(db)) {
    throw new AtlasError('usage', `Atlas: --read-db needs --db to be the PostgreSQL primary it replicates, got --db ${db ?? DEFAULT_DB}. Pass e.g. --db postgres://atlas@primary:5432/docs --read-db postgres://atlas@standby:5432/docs, or leave --read-db out.`);
  }
  if (write) throw new AtlasError('usage', 'Atlas: --read-db is for commands that read the index; ingest writes to --db, the primary.');
  return readDb;
}
