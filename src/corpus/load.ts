import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AtlasError, type CorpusProblem } from '../errors.ts';
import { resolveChunkingOptions, type ChunkingOptions } from './chunking-options.ts';
import { parsePages } from './parse-pages.ts';
import type { Doc } from './types.ts';

/** Result of {@link loadCorpus}: the valid documents and every problem found in the folder. */
export interface LoadedCorpus {
  /** Valid documents, sorted by `sourcePath`. */
  docs: Doc[];
  /** Problems of all files, in path order; pages with problems are not in `docs`. */
  problems: CorpusProblem[];
}

/** Options of {@link loadCorpus}: how to chunk, and how many threads parse (see `parsePages`). */
export interface LoadCorpusOptions extends ChunkingOptions {
  /** Threads to parse on (1: this thread only). Default: worker threads when there are 200 pages or more and several cores. */
  threads?: number;
}

/**
 * Loads every `.md` and `.mdx` page under `root` (recursively; dot-folders, dot-files and
 * `node_modules` are skipped), in path order. Never stops at the first bad page: all problems are
 * collected. Pages are parsed in worker threads when there are many (the result is the same).
 * When two pages share an id, the first in path order is kept and the later one is reported. Throws an {@link AtlasError} only when `root` is not a readable folder.
 *
 * @example
 * const { docs, problems } = await loadCorpus('./docs');
 * if (problems.length > 0) throw new CorpusError(problems);
 */
export async function loadCorpus(root: string, options: LoadCorpusOptions = {}): Promise<LoadedCorpus> {
  const resolved = resolveChunkingOptions(options);
  await assertFolder(root);
  const paths = (await listPages(root, '')).sort(comparePaths);
  const docs: Doc[] = [];
  const problems: CorpusProblem[] = [];
  const pathById = new Map<string, string>();
  const sources = [];
  for (const path of paths) sources.push({ path, bytes: await readFile(join(root, path)) });
  const results = await parsePages(sources, { chunking: resolved, ...(options.threads === undefined ? {} : { threads: options.threads }) });
  for (const [index, result] of results.entries()) {
    const path = paths[index]!;
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const { docId } = result.doc;
    const firstPath = pathById.get(docId);
    if (firstPath !== undefined) {
      problems.push({
        file: path,
        field: 'id',
        message: `id ${JSON.stringify(docId)} is used by both ${firstPath} and ${path}. Give one of them a unique id in its front matter, e.g. id: "${docId}-2".`,
      });
      continue;
    }
    pathById.set(docId, path);
    docs.push(result.doc);
  }
  return { docs, problems };
}

/** Relative paths (forward slashes) of the pages under `root/relative`. */
async function listPages(root: string, relative: string): Promise<string[]> {
  const entries = await readdir(join(root, relative), { withFileTypes: true });
  const pages: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    const isFile = entry.isFile() || (entry.isSymbolicLink() && (await isFileTarget(join(root, path))));
    if (entry.isDirectory()) pages.push(...(await listPages(root, path)));
    else if (isFile && /\.(md|mdx)$/i.test(entry.name)) pages.push(path);
  }
  return pages;
}

/** Symlinked files are followed; symlinked folders are not (no cycles). */
async function isFileTarget(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function assertFolder(root: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(root)).isDirectory();
  } catch {
    throw new AtlasError(
      'usage',
      `Atlas: docs folder ${JSON.stringify(root)} does not exist. Pass the folder that holds your .md pages, e.g. atlas ingest ./docs.`,
    );
  }
  if (!isDirectory) {
    throw new AtlasError(
      'usage',
      `Atlas: ${JSON.stringify(root)} is a file, not a docs folder. Pass the folder that holds your .md pages, e.g. atlas ingest ./docs.`,
    );
  }
}

/** Code-unit order, independent of locale. */
function comparePaths(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
