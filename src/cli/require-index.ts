import { access } from 'node:fs/promises';
import { AtlasError } from '../errors.ts';
import type { CliIO } from './io.ts';
import { DEFAULT_DB, dbPath } from './options.ts';

/** Fails with the command that fixes it when there is no index at `--db` yet. */
export async function requireIndex(io: CliIO, db: string | undefined): Promise<void> {
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
