import { availableParallelism } from 'node:os';
import type { CorpusProblem } from '../errors.ts';
import { resolveChunkingOptions, type ChunkingOptions } from './chunking/chunking-options.ts';
import { DEFAULT_FORMAT_LIMITS, type FormatLimits } from './formats/limits.ts';
import type { CorpusFileSystem } from './list-pages.ts';
import { comparePaths, readPages } from './read-pages.ts';
import type { ParseDocumentResult } from './parse-document.ts';
import type { CorpusMemory } from './corpus-memory.ts';
import { defaultParseThreads, defaultStreamThreads, parsePagesStream, type PageWorker, type ParsePagesStreamOptions } from './workers/parse-pages.ts';
import type { CorpusNote, Doc } from './types.ts';

export { readPages, type ReadPages } from './read-pages.ts';

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
  /** The pages of the last read of this folder: only the pages changed since are read and parsed (see `CorpusMemory`). */
  memory?: CorpusMemory;
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
  /** The pages read and parsed by this read, in path order: all of them, or with a `memory`, those changed since the last read. */
  parsedPaths: string[];
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
  const { onWorkerError, memory } = options;
  const read = await readPages(root, options.fs, { ...DEFAULT_FORMAT_LIMITS, ...options.limits }, memory);
  const { sources, keys, reused, problems, extensions } = read;
  const parsedPaths = sources.map((source) => source.path);
  const threads = options.threads ?? defaultThreads(sources.length, availableParallelism());
  const pathById = new Map<string, string>();
  const notes: CorpusNote[] = [];
  /** Adds one page's result to `batch`: its document, or its problems or note; a document whose id an earlier page has is a problem. */
  const take = (batch: CorpusBatch & { extras: unknown[] }, path: string, result: ParseDocumentResult, extra: unknown): void => {
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
    batch.extras.push(extra);
  };
  async function* batches(worker?: PageWorker): AsyncGenerator<CorpusBatch> {
    // The pages' bytes are let go as they are parsed (the paths stay, for the problems below).
    const parseOptions: ParsePagesStreamOptions = { chunking, threads, releaseParsed: true, ...(worker ? { worker } : {}), ...(onWorkerError ? { onWorkerError } : {}) };
    let position = 0;
    let next = 0;
    // The pages kept from the last read (see CorpusMemory) that come before `path`, in path order.
    const reusedBefore = (batch: CorpusBatch & { extras: unknown[] }, path: string): void => {
      for (; next < reused.length && comparePaths(reused[next]!.path, path) < 0; next += 1) take(batch, reused[next]!.path, reused[next]!.result, undefined);
    };
    for await (const parsed of parsePagesStream(sources, parseOptions)) {
      const batch = { docs: [] as Doc[], extras: [] as unknown[] };
      parsed.results.forEach((result, index) => {
        const path = parsedPaths[position + index]!;
        memory?.remember(path, keys[position + index]!, result);
        reusedBefore(batch, path);
        take(batch, path, result, parsed.extras?.[index]);
      });
      position += parsed.results.length;
      if (batch.docs.length > 0) yield parsed.extras === undefined ? { docs: batch.docs } : batch;
    }
    while (next < reused.length) {
      const batch = { docs: [] as Doc[], extras: [] as unknown[] };
      for (const end = Math.min(next + REUSED_BATCH, reused.length); next < end; next += 1) take(batch, reused[next]!.path, reused[next]!.result, undefined);
      if (batch.docs.length > 0) yield { docs: batch.docs };
    }
    memory?.settle(read.listed);
  }
  return {
    pages: sources.length + reused.length,
    parsedPaths,
    extensions,
    batches,
    problems: () => [...problems].sort((left, right) => comparePaths(left.file, right.file)),
    notes: () => [...notes],
  };
}

/** Pages kept from the last read yielded in one batch when no page parsed now comes between them. */
const REUSED_BATCH = 256;
