import { AtlasError, type CorpusProblem } from '../errors.ts';
import type { CorpusMemory } from './corpus-memory.ts';
import { readFolderRules } from './folder-rules.ts';
import { DEFAULT_FORMAT_LIMITS, type FormatLimits } from './formats/limits.ts';
import { fileErrorText, listPages, nodeCorpusFileSystem, type CorpusFileSystem } from './list-pages.ts';
import { SIDECAR_SUFFIX } from './page-body.ts';
import type { DocumentSource, ParseDocumentResult } from './parse-document.ts';
import { orphanSidecarProblems, readSource } from './read-source.ts';

/** What {@link readPages} read. */
export interface ReadPages {
  /** The pages to parse, in path order. */
  sources: DocumentSource[];
  /** What the folder rules give each source (same positions), as a key of the memory. */
  keys: string[];
  /** The pages whose last result a `CorpusMemory` gave (not read), in path order. */
  reused: Array<{ path: string; result: ParseDocumentResult }>;
  /** Every page listed. */
  listed: ReadonlySet<string>;
  problems: CorpusProblem[];
  extensions: Record<string, number>;
}

/** Pages read between two turns of the event loop (about 2 ms of reading). */
const YIELD_EVERY_PAGES = 256;

/**
 * Every page under `root` as {@link loadCorpus} reads it, in path order (a PDF or Word page
 * converted to markdown, a sidecar read beside its page: see `readSource`; what the folder rules
 * give it: see `readFolderRules`), with the problems of listing and reading (links out of the
 * root, unreadable pages and subfolders, files over the size limit, sidecars of no page, invalid
 * folder rules, whose pages are left out), and every file found counted by extension. With a
 * `memory`, a page it can give the last result of is not read (`reused`; see `CorpusMemory`). Throws an
 * {@link AtlasError} only when `root` is not a readable folder.
 *
 * @example
 * const { sources } = await readPages('datasets/orbit/docs');
 * await parsePages(sources, { threads: 2 });
 */
export async function readPages(
  root: string,
  fs: CorpusFileSystem = nodeCorpusFileSystem,
  limits: FormatLimits = DEFAULT_FORMAT_LIMITS,
  memory?: CorpusMemory,
): Promise<ReadPages> {
  await assertFolder(root, fs);
  const listing = await listPages(root, fs).catch((error: unknown) => {
    throw rootError(root, error);
  });
  const rules = await readFolderRules(listing.rules, listing.pages, { root, fs });
  const problems: CorpusProblem[] = [...listing.problems, ...rules.problems];
  const sources: DocumentSource[] = [];
  const keys: string[] = [];
  const reused: ReadPages['reused'] = [];
  const reading = { root, fs, limits, sidecars: new Set(listing.sidecars) };
  let read = 0;
  for (const path of listing.pages.sort(comparePaths)) {
    const ruled = rules.forPage(path);
    // Under an invalid folder rule (its problem says so): left out, never indexed without the access the rule gives.
    if (!ruled.ok) {
      reading.sidecars.delete(`${path}${SIDECAR_SUFFIX}`);
      continue;
    }
    const key = JSON.stringify(ruled.meta ?? null);
    const kept = memory?.reusable(path, key);
    if (kept !== undefined) {
      reading.sidecars.delete(`${path}${SIDECAR_SUFFIX}`);
      reused.push({ path, result: kept });
      continue;
    }
    // The real file system reads a page synchronously: a server stays responsive between batches.
    if (++read % YIELD_EVERY_PAGES === 0) await new Promise((resolve) => setImmediate(resolve));
    const result = await readSource(path, reading);
    if ('source' in result) {
      sources.push(ruled.meta === undefined ? result.source : { ...result.source, folder: ruled.meta });
      keys.push(key);
    } else {
      problems.push(result.problem);
    }
  }
  problems.push(...orphanSidecarProblems(reading.sidecars));
  return { sources, keys, reused, listed: new Set(listing.pages), problems, extensions: listing.extensions };
}

async function assertFolder(root: string, fs: CorpusFileSystem): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await fs.stat(root)).isDirectory();
  } catch (error) {
    throw rootError(root, error);
  }
  if (!isDirectory) {
    throw new AtlasError(
      'usage',
      `Atlas: ${JSON.stringify(root)} is a file, not a docs folder. Pass the folder that holds your .md pages, e.g. atlas ingest ./docs.`,
    );
  }
}

const ROOT_FIXES: Record<string, string> = {
  EACCES: 'Make it readable (chmod a+rx).',
  EPERM: 'Make it readable (chmod a+rx).',
  ENAMETOOLONG: 'Shorten the names of its folders, or move it higher up.',
  ENOTDIR: 'Pass the path of a folder, e.g. atlas ingest ./docs.',
  ELOOP: 'Fix the symbolic links on the path, or pass the real folder.',
};

/** The error of a docs root that cannot be read: missing, unreadable, or a path too long. */
function rootError(root: string, error: unknown): AtlasError {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') {
    return new AtlasError(
      'usage',
      `Atlas: docs folder ${JSON.stringify(root)} does not exist. Pass the folder that holds your .md pages, e.g. atlas ingest ./docs.`,
      { cause: error },
    );
  }
  return new AtlasError(
    code === 'ENAMETOOLONG' || code === 'ENOTDIR' ? 'usage' : 'invalid-corpus',
    `Atlas: cannot read the docs folder ${JSON.stringify(root)}: ${fileErrorText(error)}. ${ROOT_FIXES[code ?? ''] ?? 'Check the path and the disk, then run the command again.'}`,
    { cause: error },
  );
}

/** Code-unit order, independent of locale. */
export function comparePaths(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
