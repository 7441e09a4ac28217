import { access } from 'node:fs/promises';
import { AtlasError } from '../errors.ts';
import { isPostgresUrl } from '../index/postgres-url.ts';
import type { CliIO } from './io.ts';
import { DEFAULT_DB, dbPath } from './options.ts';

/** Fails with the command that fixes it when there is no index file at `--db` yet (a PostgreSQL index checks on its first call). */
export async function requireIndex(io: CliIO, db: string | undefined): Promise<void> {
  // A PostgreSQL index reports a missing index itself, on its first call.
  if (isPostgresUrl(db)) return;
  const file = dbPath(io, db);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (!exists) {
    throw new AtlasError(
      'index-missing',
      `Atlas: no index at ${file}. Build it first: atlas ingest <docs-dir>${db && db !== DEFAULT_DB ? ` --db ${db}` : ''} (e.g. atlas ingest datasets/orbit).`,
    );
  }
}
