import { access } from 'node:fs/promises';
import { AtlasError } from '../errors.ts';
import { isPostgresUrl } from '../index/postgres/postgres-url.ts';
import type { CliIO } from './io.ts';
import { DEFAULT_DB, dbPath } from './options/options.ts';

/** Whether there is an index at `--db`: a file there, or a PostgreSQL URL (which reports a missing index itself, on its first call). */
export async function indexPresent(io: CliIO, db: string | undefined): Promise<boolean> {
  if (isPostgresUrl(db)) return true;
  return access(dbPath(io, db)).then(
    () => true,
    () => false,
  );
}

/** Fails with the command that fixes it when there is no index file at `--db` yet (a PostgreSQL index checks on its first call). */
export async function requireIndex(io: CliIO, db: string | undefined): Promise<void> {
  if (!(await indexPresent(io, db))) {
    const file = dbPath(io, db);
    throw new AtlasError(
      'index-missing',
      `Atlas: no index at ${file}. Build it first: atlas ingest <docs-dir>${db && db !== DEFAULT_DB ? ` --db ${db}` : ''} (e.g. atlas ingest datasets/orbit).`,
    );
  }
}
