import path from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import type { LanguageModel } from 'ai';
import { createOfflineModel } from '../agent/offline/index.ts';
import type { ModelPrice } from '../agent/cost.ts';
import { createSqliteIndex } from '../index/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';
import { defaultModelSpec, findPrice, loadPriceOverrides, resolveModel } from '../models/index.ts';
import type { CliIO } from './io.ts';
import { nonEmpty } from './option-values.ts';

/** Default index location, relative to the working directory. */
export const DEFAULT_DB = '.atlas/index.db';

/** `--db PATH`, the index file of the commands that read or write it. */
export function dbOption(): Option {
  return new Option('--db <path>', 'index file').default(DEFAULT_DB).argParser(nonEmpty('--db', DEFAULT_DB));
}

/** `--version V`, the release-line filter applied inside the index. */
export function versionOption(): Option {
  return new Option('--version <v>', 'only pages for this release line (and pages for all versions)').argParser(nonEmpty('--version', '3.x'));
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

/** A model chosen from `--model`, `ATLAS_MODEL` or the offline default, with its price. */
export interface CliModel {
  model: LanguageModel;
  spec: string;
  price: ModelPrice | null;
}

/**
 * Resolves the model of a command: `--model` wins, then `ATLAS_MODEL`, then the offline planner
 * (announced in one line on stderr).
 */
export function cliModel(io: CliIO, spec: string | undefined): CliModel {
  const chosen = spec ?? defaultModelSpec(io.env);
  if (spec === undefined && chosen === 'offline') {
    io.stderr('atlas: no model configured (--model or ATLAS_MODEL); using the offline planner (no key, no network).\n');
  }
  const resolved = resolveModel(chosen, { env: io.env, offline: () => createOfflineModel() });
  const price = findPrice(resolved.spec, loadPriceOverrides(io.env)) ?? null;
  return { model: resolved.model, spec: resolved.spec, price };
}
