import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AtlasError } from '../errors.ts';
import type { CliIO } from './io.ts';

/**
 * The folder `atlas ingest <dir>` indexes: `dir` itself, except for a dataset folder (one with
 * `docs/` and an `eval/` holding `.jsonl` files, the format of datasets/orbit), whose `docs/` is
 * indexed; that choice is announced on stderr with the pages beside `docs/` it leaves out. A
 * folder that merely has a `docs/` subfolder is indexed whole. A missing path or a file is a
 * usage error that says what to pass.
 *
 * @example
 * await docsRoot(io, 'datasets/orbit'); // '/abs/datasets/orbit/docs', announced on stderr
 * await docsRoot(io, 'site');           // '/abs/site' (site/docs/ included)
 */
export async function docsRoot(io: CliIO, dir: string): Promise<string> {
  const absolute = path.resolve(io.cwd, dir);
  const info = await stat(absolute).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'ENOENT') {
      throw new AtlasError('usage', `Atlas: docs folder not found: ${dir}. Pass a folder of .md files, e.g. atlas ingest datasets/orbit.`);
    }
    return undefined; // loadCorpus names the cause (permission, path too long).
  });
  if (info === undefined) return absolute;
  if (!info.isDirectory()) {
    const parent = path.dirname(dir);
    throw new AtlasError(
      'usage',
      `Atlas: ${dir} is a file, not a folder; atlas ingest indexes every page of a folder. Pass the folder that holds it: atlas ingest ${parent === '' ? '.' : parent}`,
    );
  }
  if (!(await isDatasetFolder(absolute))) return absolute;
  const beside = await pagesBeside(absolute);
  const left = beside.length === 0 ? '' : `; ${beside.length} ${beside.length === 1 ? 'page' : 'pages'} beside it not indexed: ${listed(beside)}`;
  io.stderr(`atlas: ${dir} is a dataset folder (docs/ and eval/*.jsonl): indexing ${path.join(dir, 'docs')}${left}.\n`);
  return path.join(absolute, 'docs');
}

async function isDatasetFolder(folder: string): Promise<boolean> {
  const docs = await stat(path.join(folder, 'docs')).catch(() => undefined);
  if (!docs?.isDirectory()) return false;
  const evalEntries = await readdir(path.join(folder, 'eval')).catch(() => [] as string[]);
  return evalEntries.some((name) => name.endsWith('.jsonl'));
}

/** Pages at the top of a dataset folder (README.md, FACTS.md ...), which its docs/ does not hold. */
async function pagesBeside(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => !entry.isDirectory() && !entry.name.startsWith('.') && /\.(md|mdx)$/i.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

function listed(names: string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}
