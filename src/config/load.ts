import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AtlasError } from '../errors.ts';
import type { AtlasConfig } from './schema.ts';

/** The file name looked for at the docs root and the project root. */
export const CONFIG_FILE_NAME = 'atlas.config.yaml';

/** Where {@link loadConfig} looks, and how it reads. */
export interface LoadConfigOptions {
  /** Directory relative paths resolve against, and the project root looked in last. */
  cwd: string;
  /** An explicit config file (`--config`): it must exist. */
  file?: string;
  /** Environment: `ATLAS_CONFIG` is an explicit file too, after `file`. */
  env?: Record<string, string | undefined>;
  /** The docs root (the folder `atlas ingest` indexed), looked in before `cwd`. */
  docsRoot?: string;
  /** Reads a file as UTF-8 (default `fs.promises.readFile`); tests inject their own. */
  readFile?: (file: string) => Promise<string>;
}

/**
 * Finds, reads and validates the config, first found wins: `file` (`--config`), then
 * `ATLAS_CONFIG`, then `atlas.config.yaml` at the docs root, then at `cwd`. An explicit file
 * that cannot be read is an error; a discovered file that is absent is fine (undefined when
 * none is found). An invalid file is an error naming the file, the field, the value and the fix.
 *
 * @example
 * const config = await loadConfig({ cwd: process.cwd(), env: process.env, docsRoot: 'examples/allergy' });
 * config?.modelLabels; // [{ name: 'store', description: 'Which bakery store the question is about' }]
 * config?.policy?.rules[0]?.name; // 'allergen-labels'
 */
export async function loadConfig(options: LoadConfigOptions): Promise<AtlasConfig | undefined> {
  const read = options.readFile ?? ((file: string) => readFile(file, 'utf8'));
  const explicit = options.file ?? nonBlank(options.env?.ATLAS_CONFIG);
  if (explicit !== undefined) {
    const via = options.file !== undefined ? '--config' : 'ATLAS_CONFIG';
    const text = await read(path.resolve(options.cwd, explicit)).catch((error: unknown) => {
      const fix = via === '--config' ? 'Pass the path of an atlas.config.yaml, or leave --config out to use the one at the docs or project root.' : 'Point ATLAS_CONFIG at an atlas.config.yaml, or unset it.';
      throw new AtlasError('usage', `Atlas: cannot read the config file ${JSON.stringify(explicit)} (${via}): ${readFailure(error)}. ${fix}`);
    });
    return parse(text, explicit);
  }
  const folders = [options.docsRoot, options.cwd].filter((folder): folder is string => folder !== undefined);
  for (const folder of [...new Set(folders.map((folder) => path.resolve(options.cwd, folder)))]) {
    const file = path.join(folder, CONFIG_FILE_NAME);
    const shown = shownPath(options.cwd, file);
    const text = await read(file).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new AtlasError('usage', `Atlas: cannot read the config file ${JSON.stringify(shown)}: ${readFailure(error)}. Make it a readable YAML file, or remove it.`);
    });
    if (text !== undefined) return parse(text, shown);
  }
  return undefined;
}

/** Validates a found file; the YAML and zod schema load only then (`atlas search` with no config loads neither). */
async function parse(text: string, source: string): Promise<AtlasConfig> {
  const { parseConfig } = await import('./schema.ts');
  return parseConfig(text, source);
}

/** A discovered file as messages and traces name it: relative to `cwd` when inside it. */
function shownPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : String((error as Error).message);
  return `${why}${code ? ` (${code})` : ''}`;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
