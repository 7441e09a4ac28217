import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { AtlasError, type CorpusProblem } from '../errors.ts';
import { resolveChunkingOptions, type ChunkingOptions } from './chunking/chunking-options.ts';
import { DEFAULT_FORMAT_LIMITS, type FormatLimits } from './formats/limits.ts';
import { fileErrorText, listPages, nodeCorpusFileSystem, type CorpusFileSystem } from './list-pages.ts';
import { orphanSidecarProblems, readSource } from './read-source.ts';
import { readFolderRules } from './folder-rules.ts';
import { SIDECAR_SUFFIX } from './page-body.ts';
import type { DocumentSource } from './parse-document.ts';
import { defaultParseThreads, defaultStreamThreads, parsePagesStream, type PageWorker, type ParsePagesStreamOptions } from './workers/parse-pages.ts';
import type { CorpusNote, Doc } from './types.ts';

/** Result of {@link loadCorpus}: the valid documents and every problem found in the folder. */
export interface LoadedCorpus {
  /** Valid documents, sorted by `sourcePath`. */
  docs: Doc[];
  /** Problems of all files, in path order; pages with problems are not in `docs`. */
  problems: CorpusProblem[];
  /** Pages left out on purpose, in path order: not problems (a page with no text of its own, see `CorpusNote`). */
  notes: CorpusNote[];
}

/** Options of {@link loadCorpus}: how pages are chunked, the file system to read, and how many threads parse. */
export interface LoadCorpusOptions extends ChunkingOptions {
  /** Default: the real file system (`node:fs/promises`). */
  fs?: CorpusFileSystem;
  /** Threads to parse on (1: this thread only). Default: worker threads when there are 200 pages or more and several cores (see `parsePages`). */
  threads?: number;
  /** Bounds on reading one file (size, PDF pages, text, time); each one given replaces its default (`DEFAULT_FORMAT_LIMITS`). */
  limits?: Partial<FormatLimits>;
}

/**
 * Loads every `.md` and `.mdx` page under `root` (recursively; dot-folders, dot-files and
 * `node_modules` are skipped), in path order. Never stops at the first bad page: all problems are
 * collected, unreadable pages and subfolders included; a page with no text of its own (only
 * markup, as a site's home page) is left out with a note. Nothing outside `root` is read: a symlink
 * whose target lies outside it is refused as a problem (list-pages.ts: symlinked pages inside
 * the root are followed once, symlinked folders never). Pages are parsed in worker threads when
 * there are many (the result is the same). When two pages share an id, the first in path order
 * is kept and the later one is reported. Throws an {@link AtlasError} only when `root` is not a
 * readable folder.
 *
 * @example
 * const { docs, problems } = await loadCorpus('./docs');
 * if (problems.length > 0) throw new CorpusError(problems);
 */
export async function loadCorpus(root: string, options: LoadCorpusOptions = {}): Promise<LoadedCorpus> {
  // Nothing else runs meanwhile: the default threads of parsePages, not those of a stream.
  const corpus = await openCorpusStream(root, options, defaultParseThreads);
  const docs: Doc[] = [];
  for await (const batch of corpus.batches()) docs.push(...batch.docs);
  return { docs, problems: corpus.problems(), notes: corpus.notes() };
}

/** Options of {@link streamCorpus}: those of {@link loadCorpus}. */
export interface StreamCorpusOptions extends LoadCorpusOptions {
  /**
   * Threads to parse on (1: this thread only). Default: this thread and a worker per other core
   * when there are 200 pages or more (see `defaultStreamThreads`).
   */
  threads?: number;
  /** Called when a parse worker fails (it cannot start, say); its pages are then parsed on this thread. */
  onWorkerError?: (error: Error) => void;
}

/** Consecutive valid documents of a {@link CorpusStream}, in path order. */
export interface CorpusBatch {
  docs: Doc[];
  /** The extra value of each document (same positions) when a `PageWorker` parsed it; absent when this thread did. */
  extras?: unknown[];
}

/** A docs folder read and being parsed: its valid documents as they come, and its problems. */
export interface CorpusStream {
  /** The pages found (valid or not). */
  pages: number;
  /** Every file found, pages and not, counted by extension (`{ '.html': 530, '.png': 12 }`): what a folder with no page Atlas reads holds. */
  extensions: Record<string, number>;
  /**
   * The valid documents in path order, batch by batch as they are parsed; `worker` (default the
   * plain parser) may also derive a value per page (see `PageWorker`). Call it once.
   */
  batches(worker?: PageWorker): AsyncIterable<CorpusBatch>;
  /** Every problem found so far, in path order: all of them once `batches` has ended. */
  problems(): CorpusProblem[];
  /** The pages left out on purpose so far, in path order (see `CorpusNote`): all of them once `batches` has ended. */
  notes(): CorpusNote[];
}

/**
 * {@link loadCorpus} as a stream: the pages are read (and listing or reading problems found)
 * before it returns; then `batches` yields the valid documents while the pages are parsed, in
 * worker threads when there are many (see `parsePagesStream`), so a caller can write each batch
 * to an index while the next is parsed. The same documents and problems as {@link loadCorpus}.
 *
 * @example
 * const corpus = await streamCorpus('./docs');
 * for await (const { docs } of corpus.batches()) write(docs);
 * if (corpus.problems().length > 0) rollBack();
 */
export async function streamCorpus(root: string, options: StreamCorpusOptions = {}): Promise<CorpusStream> {
  return openCorpusStream(root, options, defaultStreamThreads);
}

async function openCorpusStream(
  root: string,
  options: StreamCorpusOptions,
  defaultThreads: (pages: number, cores: number) => number,
): Promise<CorpusStream> {
  const chunking = resolveChunkingOptions(options);
  const { onWorkerError } = options;
  const { sources, problems, extensions } = await readPages(root, options.fs, { ...DEFAULT_FORMAT_LIMITS, ...options.limits });
  const threads = options.threads ?? defaultThreads(sources.length, availableParallelism());
  const pathById = new Map<string, string>();
  const notes: CorpusNote[] = [];
  async function* batches(worker?: PageWorker): AsyncGenerator<CorpusBatch> {
    // The pages' bytes are let go as they are parsed (the paths stay, for the problems below).
    const parseOptions: ParsePagesStreamOptions = { chunking, threads, releaseParsed: true, ...(worker ? { worker } : {}), ...(onWorkerError ? { onWorkerError } : {}) };
    let position = 0;
    for await (const parsed of parsePagesStream(sources, parseOptions)) {
      const batch: CorpusBatch = { docs: [] };
      const extras: unknown[] = [];
      parsed.results.forEach((result, index) => {
        const { path } = sources[position + index]!;
        if (!result.ok) {
          problems.push(...result.problems);
          if (result.skipped) notes.push(result.skipped);
          return;
        }
        const { docId } = result.doc;
        const firstPath = pathById.get(docId);
        if (firstPath !== undefined) {
          problems.push({
            file: path,
            field: 'id',
            message: `id ${JSON.stringify(docId)} is used by both ${firstPath} and ${path}. Give one of them a unique id in its front matter, e.g. id: "${docId}-2".`,
          });
          return;
        }
        pathById.set(docId, path);
        batch.docs.push(result.doc);
        extras.push(parsed.extras?.[index]);
      });
      position += parsed.results.length;
      if (parsed.extras !== undefined) batch.extras = extras;
      if (batch.docs.length > 0) yield batch;
    }
  }
  return {
    pages: sources.length,
    extensions,
    batches,
    problems: () => [...problems].sort((left, right) => comparePaths(left.file, right.file)),
    notes: () => [...notes],
  };
}

/** Pages read between two turns of the event loop (about 2 ms of reading). */
const YIELD_EVERY_PAGES = 256;

/**
 * Every page under `root` as {@link loadCorpus} reads it, in path order (a PDF or Word page
 * converted to markdown, a sidecar read beside its page: see `readSource`; what the folder rules
 * give it: see `readFolderRules`), with the problems of listing and reading (links out of the
 * root, unreadable pages and subfolders, files over the size limit, sidecars of no page, invalid
 * folder rules, whose pages are left out), and every file found counted by extension. Throws an
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
): Promise<{ sources: DocumentSource[]; problems: CorpusProblem[]; extensions: Record<string, number> }> {
  await assertFolder(root, fs);
  const listing = await listPages(root, fs).catch((error: unknown) => {
    throw rootError(root, error);
  });
  const rules = await readFolderRules(listing.rules, listing.pages, { root, fs });
  const problems: CorpusProblem[] = [...listing.problems, ...rules.problems];
  const sources: DocumentSource[] = [];
  const reading = { root, fs, limits, sidecars: new Set(listing.sidecars) };
  let read = 0;
  for (const path of listing.pages.sort(comparePaths)) {
    const ruled = rules.forPage(path);
    // Under an invalid folder rule (its problem says so): left out, never indexed without the access the rule gives.
    if (!ruled.ok) {
      reading.sidecars.delete(`${path}${SIDECAR_SUFFIX}`);
      continue;
    }
    // The real file system reads a page synchronously: a server stays responsive between batches.
    if (++read % YIELD_EVERY_PAGES === 0) await new Promise((resolve) => setImmediate(resolve));
    const result = await readSource(path, reading);
    if ('source' in result) sources.push(ruled.meta === undefined ? result.source : { ...result.source, folder: ruled.meta });
    else problems.push(result.problem);
  }
  problems.push(...orphanSidecarProblems(reading.sidecars));
  return { sources, problems, extensions: listing.extensions };
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
function comparePaths(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
