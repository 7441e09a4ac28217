import path from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { createSqliteIndex } from '../index/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';
import type { CliIO } from './io.ts';

/** Default index location, relative to the working directory. */
export const DEFAULT_DB = '.atlas/index.db';

/** `--db PATH`, the index file of the commands that read or write it. */
export function dbOption(): Option {
  return new Option('--db <path>', 'index file').default(DEFAULT_DB);
}

/** `--version V`, the release-line filter applied inside the index. */
export function versionOption(): Option {
  return new Option('--version <v>', 'only pages for this release line (and pages for all versions)');
}

/** commander parser for positive integers, with a message that says what to pass. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) {
      throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}" (e.g. ${name} 5).`);
    }
    return parsed;
  };
}

/** Resolves `--db` against the working directory. */
export function dbPath(io: CliIO, db: string | undefined): string {
  return path.resolve(io.cwd, db ?? DEFAULT_DB);
}

/** Opens the sqlite index at `--db`. */
export function openIndex(io: CliIO, db: string | undefined): IndexBackend {
  return createSqliteIndex({ path: dbPath(io, db) });
}
