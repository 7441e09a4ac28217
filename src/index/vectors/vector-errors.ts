import { AtlasError } from '../../errors.ts';

/**
 * The error of an index whose vectors are of another model than the one given: both named, and
 * the two fixes (the recorded model, or a rebuild with the new one).
 *
 * @example
 * throw vectorModelMismatch('.atlas/index.db', 'hash:256', 'openai:text-embedding-3-small');
 */
export function vectorModelMismatch(path: string, recorded: string, model: string): AtlasError {
  return new AtlasError(
    'index-schema',
    `Atlas: the index at ${path} holds vectors of ${recorded}, not ${model}. Pass --embed ${recorded} (or set ATLAS_EMBED=${recorded}), or rebuild the index with the new model: atlas ingest <docs-dir> --db ${path} --rebuild --embed ${model}`,
  );
}
