import { existsSync } from 'node:fs';
import path from 'node:path';
import { createCorpusMemory, streamCorpus, type CorpusMemory, type CorpusStream } from '../../corpus/index.ts';
import { AtlasError, CorpusError } from '../../errors.ts';
import { createIndexFile, isIndexExists, replaceIndexFile } from '../../index/sqlite/sqlite-rebuild.ts';
import { ingestItems, ingestPageWorker } from '../../index/sqlite/ingest-items.ts';
import type { IngestItem } from '../../index/sqlite/ingest-session.ts';
import { createPostgresIndex } from '../../index/postgres/postgres.ts';
import { isPostgresUrl, parsePostgresUrl } from '../../index/postgres/postgres-url.ts';
import type { SqliteIndex } from '../../index/sqlite/sqlite.ts';
import type { IngestReport } from '../../index/types.ts';
import type { Doc } from '../../corpus/types.ts';
import type { AtlasConfig } from '../../config/schema.ts';
import { commandConfig, modelLabelNotes } from '../options/config-option.ts';
import { docsRoot } from '../docs-root.ts';
import type { CliIO } from '../io.ts';
import { busyTimeoutMs, dbPath, openIndexFile, type CliIndex } from '../options/options.ts';
import { cliEmbedder, embedProgress } from '../options/embed-option.ts';
import type { Embedder } from '../../embed/types.ts';
import { vectorModelMismatch } from '../../index/vectors/vector-errors.ts';
import type { VectorBackend } from '../../index/vectors/vector-types.ts';
import { PAGE_EXTENSIONS_TEXT } from '../../corpus/index.ts';
import { foundText } from './found-text.ts';

/** The options of an ingest, as `atlas ingest` takes them (`atlas serve --watch` passes its own). */
export interface IngestOptions {
  db: string;
  skipInvalid?: boolean;
  allowEmpty?: boolean;
  rebuild?: boolean;
  maxChunkChars?: number;
  json?: boolean;
  config?: string;
  embed?: string;
  /** The folder is watched (`--watch`): the plan keeps its pages between ingests, so each reads and parses only the pages changed. */
  watch?: boolean;
}

/** What an ingest of one docs folder needs, resolved once: the folder, the index, the config, the embedder. */
export interface IngestPlan {
  io: CliIO;
  /** The index file, or the PostgreSQL URL without its password. */
  file: string;
  /** The index as the user gave it (or the default): the spelling they recognise, whatever the cwd. */
  shown: string;
  /** The folder as given. */
  dir: string;
  /** The folder given, absolute: recorded as the index's docs root. */
  given: string;
  /** The folder whose pages are indexed (a dataset folder's docs/), absolute. */
  root: string;
  options: IngestOptions;
  /** `--embed` / `ATLAS_EMBED`, resolved. */
  embedder: Embedder | undefined;
  /** With `watch`: the pages as last parsed, so that an ingest reads and parses only the pages changed since (`CorpusMemory`). */
  memory?: CorpusMemory;
}

/** One ingest's outcome: the report, the pages skipped as invalid (with --skip-invalid), and the pages read and parsed. */
export interface IngestOutcome {
  report: IngestReport;
  skipped: string[];
  /** The pages this ingest read and parsed: all of them, or with the plan's `memory`, those changed since the last ingest. */
  parsed: string[];
}

/**
 * Resolves what `atlas ingest <dir>` indexes and where (announcing a dataset folder's docs/):
 * done once, also when `--watch` ingests again and again.
 *
 * @example
 * const plan = await planIngest(io, 'docs', { db: '.atlas/index.db' });
 * const { report } = await runIngest(plan);
 */
export async function planIngest(io: CliIO, dir: string, options: IngestOptions): Promise<IngestPlan> {
  const root = await docsRoot(io, dir);
  const embedder = await cliEmbedder(io, options);
  // The folder given is the docs root the index records: atlas ask looks for atlas.config.yaml there.
  const given = path.resolve(io.cwd, dir);
  const postgres = isPostgresUrl(options.db);
  // A PostgreSQL URL is shown without its password, here and in every message.
  const file = postgres ? parsePostgresUrl(options.db).shown : dbPath(io, options.db);
  return { io, file, shown: postgres ? file : options.db, dir, given, root, options, embedder, ...(options.watch ? { memory: createCorpusMemory() } : {}) };
}

/**
 * One ingest of the plan's folder: atomic (one transaction; a failure leaves the index as it
 * was) and incremental by content hash, then the embedding run when the plan has an embedder.
 * Notes and skipped pages go to stderr.
 */
export async function runIngest(plan: IngestPlan): Promise<IngestOutcome> {
  // Pages are parsed (in worker threads when there are many) while the index writes them.
  const openCorpus = () =>
    streamCorpus(plan.root, {
      ...(plan.options.maxChunkChars ? { maxChunkChars: plan.options.maxChunkChars } : {}),
      ...(plan.memory ? { memory: plan.memory } : {}),
      onWorkerError: (error) => plan.io.stderr(`atlas: warning: a parse worker failed (${error.message}); its pages are parsed on the main thread, more slowly.\n`),
    });
  const corpus = await openCorpus();
  // Read at each ingest (after the folder: its errors come first), so a watched folder's edited config counts.
  const config = await commandConfig(plan.io, plan.options, plan.given);
  const context: IngestContext = { ...plan, config, corpus, openCorpus };
  const { options, file } = plan;
  // A new index file is built beside and linked into place: a failed first ingest leaves no file.
  const textReport = isPostgresUrl(options.db) ? await ingestPostgres(context) : options.rebuild ? await rebuild(context) : !existsSync(file) ? await create(context) : await ingestInPlace(context);
  // Vectors once the text ingest has committed (docs/vectors.md): a failed embedding call keeps the text index.
  const report = await embedAfterIngest(context, textReport);
  return { report, skipped: corpus.problems().map((problem) => problem.file), parsed: corpus.parsedPaths };
}

interface IngestContext extends IngestPlan {
  config: AtlasConfig | undefined;
  corpus: CorpusStream;
  /** Lists and parses the docs folder again (a stream is read once). */
  openCorpus: () => Promise<CorpusStream>;
}

/** The incremental ingest: one transaction into the existing index. */
async function ingestInPlace(context: IngestContext): Promise<IngestReport> {
  const index = openIndexFile(context.io, context.file, { write: true });
  try {
    await refuseOtherModel(index, context);
    const report = await index.ingestStream(ingestBatches(context.corpus, index), { beforeCommit: (report) => beforeCommit(context, report, report.removed.length) });
    await afterIngest(context, index);
    if (context.embedder === undefined) await noteMissingVectors(context, index);
    return report;
  } finally {
    await index.close();
  }
}

/** Without --embed, on an index that has vectors: notes the chunks this ingest left without one. */
async function noteMissingVectors(context: IngestContext, index: VectorBackend): Promise<void> {
  const status = await index.vectorStatus();
  if (status && status.missing > 0) {
    const db = isPostgresUrl(context.options.db) ? context.file : context.options.db;
    context.io.stderr(`atlas: note: ${status.missing} of ${status.vectors + status.missing} chunks have no vector of ${status.model}; vector and hybrid search miss them until: atlas ingest ${context.dir} --db ${db} --embed ${status.model}\n`);
  }
}

/** `--rebuild`: a new index in a temporary file, renamed over the old one once complete. */
async function rebuild(context: IngestContext): Promise<IngestReport> {
  const indexed = await existingDocCount(context);
  return replaceIndexFile(context.file, (temporary) => buildIndexFile(context, temporary, indexed), { busyTimeoutMs: busyTimeoutMs(context.io) });
}

/**
 * A new index: built in a temporary file and put in place only if there is still no file (never
 * over an index another ingest created meanwhile). When one did, this ingest goes into it
 * instead, incrementally, as if it had started after the other.
 */
async function create(context: IngestContext): Promise<IngestReport> {
  try {
    return await createIndexFile(context.file, (temporary) => buildIndexFile(context, temporary, 0));
  } catch (error) {
    if (!isIndexExists(error)) throw error;
    context.io.stderr(`atlas: note: another ingest created the index at ${context.options.db} while this one was building it; ingesting into that index instead.\n`);
    return ingestInPlace({ ...context, corpus: await context.openCorpus() });
  }
}

/** Writes the whole docs folder into a new index at `temporary` (`indexed`: docs of the index it replaces, for the empty-folder check). */
async function buildIndexFile(context: IngestContext, temporary: string, indexed: number): Promise<IngestReport> {
  const index = openIndexFile(context.io, temporary, { write: true });
  try {
    const report = await index.ingestStream(ingestBatches(context.corpus, index), { beforeCommit: (report) => beforeCommit(context, report, indexed) });
    await afterIngest(context, index);
    // The old index's vectors of the same model come along: unchanged text makes no embedding call.
    if (context.embedder && existsSync(context.file)) await index.seedVectors(context.file, context.embedder.model);
    return report;
  } finally {
    await index.close();
  }
}

/**
 * The ingest into PostgreSQL: every page parsed first, checked (invalid pages, an empty folder),
 * then written in one transaction (`--rebuild` drops and recreates the tables in that same
 * transaction, so a failure leaves the previous index as it was).
 */
async function ingestPostgres(context: IngestContext): Promise<IngestReport> {
  const index = createPostgresIndex({ url: context.options.db, rebuild: context.options.rebuild === true });
  try {
    const indexed = context.options.rebuild ? await index.stats().then((stats) => stats.docs, () => 0) : (await index.stats()).docs;
    const docs: Doc[] = [];
    for await (const batch of context.corpus.batches()) docs.push(...batch.docs);
    const problems = context.corpus.problems();
    if (problems.length > 0 && !context.options.skipInvalid) throw new CorpusError(problems);
    if (docs.length === 0) refuseEmpty(context, indexed, problems.length);
    for (const problem of problems) context.io.stderr(`skipped ${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.field}: ${problem.message}\n`);
    writeNotes(context);
    // A rebuild drops the vectors with the rest: only an update must match the recorded model.
    if (!context.options.rebuild) await refuseOtherModel(index, context);
    const report = await index.ingest(docs);
    await afterIngest(context, index);
    if (context.embedder === undefined) await noteMissingVectors(context, index);
    return report;
  } finally {
    await index.close();
  }
}

/** Fails before anything is written when the index holds vectors of another model than `--embed`. */
async function refuseOtherModel(index: VectorBackend, context: IngestContext): Promise<void> {
  if (context.embedder === undefined) return;
  const status = await index.vectorStatus();
  // A PostgreSQL URL is named without its password.
  const location = isPostgresUrl(context.options.db) ? context.file : context.options.db;
  if (status && status.model !== context.embedder.model) throw vectorModelMismatch(location, status.model, context.embedder.model);
}

/**
 * With an embedder, once the text ingest has committed: embeds the chunks that have no vector
 * (unchanged ones keep theirs) and adds the sync report. Without one: the report as it is (no
 * second open of the index).
 */
async function embedAfterIngest(context: IngestContext, report: IngestReport): Promise<IngestReport> {
  if (context.embedder === undefined) return report;
  const index = isPostgresUrl(context.options.db) ? createPostgresIndex({ url: context.options.db }) : openIndexFile(context.io, context.file, { write: true });
  try {
    const vectors = await index.syncVectors(context.embedder, { onProgress: embedProgress(context.io, context.embedder.model) });
    return { ...report, vectors };
  } finally {
    await index.close();
  }
}

/** Records the docs root, and notes the config's model labels no public page carries. */
async function afterIngest(context: IngestContext, index: CliIndex): Promise<void> {
  await index.recordDocsRoot(context.given);
  for (const note of await modelLabelNotes(index, context.config, undefined)) context.io.stderr(`atlas: note: ${note}\n`);
}

/** The corpus's batches, parsed by workers that also derive what the index computes from each chunk (so this thread only writes). */
async function* ingestBatches(corpus: CorpusStream, index: SqliteIndex): AsyncGenerator<IngestItem[]> {
  for await (const batch of corpus.batches(ingestPageWorker(index.tokenizer))) yield ingestItems(batch, index.tokenizer);
}

/**
 * Once every page is parsed and written, before the commit: invalid pages fail the ingest (all of
 * them named) unless --skip-invalid, which lists them; a folder with no valid page must not empty
 * an index of `indexed` docs. Throwing rolls the ingest back.
 */
function beforeCommit(context: IngestContext, report: IngestReport, indexed: number): void {
  const problems = context.corpus.problems();
  if (problems.length > 0 && !context.options.skipInvalid) throw new CorpusError(problems);
  for (const problem of problems) context.io.stderr(`skipped ${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.field}: ${problem.message}\n`);
  writeNotes(context);
  if (report.added.length + report.updated.length + report.unchanged.length === 0) refuseEmpty(context, indexed, problems.length);
}

/** The pages left out on purpose (a page with only markup, as a site's home page), one note each: they do not fail the ingest. */
function writeNotes(context: IngestContext): void {
  for (const note of context.corpus.notes()) context.io.stderr(`atlas: note: ${note.file}: ${note.field}: ${note.message}\n`);
}

/** Docs in the index `--rebuild` replaces; one that cannot be read (damaged, old schema) counts 0. */
async function existingDocCount(context: IngestContext): Promise<number> {
  try {
    const index = openIndexFile(context.io, context.file);
    try {
      return (await index.stats()).docs;
    } finally {
      await index.close();
    }
  } catch {
    return 0;
  }
}

/**
 * Item of issue 9: a folder with no pages must not silently empty a non-empty index; and
 * (issue 40) a folder with no page Atlas reads is an error even into an empty index, naming what
 * the folder holds and the formats Atlas reads. `--allow-empty` lets either through.
 */
function refuseEmpty(context: IngestContext, indexed: number, skipped: number): void {
  if (context.options.allowEmpty) return;
  const { corpus, dir } = context;
  const found = foundText(corpus.extensions, corpus.pages, skipped, corpus.notes().length);
  if (indexed === 0) {
    throw new AtlasError(
      'invalid-corpus',
      `Atlas: ${dir} has no page Atlas reads: ${found}. Atlas reads ${PAGE_EXTENSIONS_TEXT} files. Nothing was indexed. Pass the folder that holds your docs, or pass --allow-empty to make an empty index.`,
    );
  }
  throw new AtlasError(
    'invalid-corpus',
    `Atlas: ${dir} has no page Atlas reads: ${found}; ingesting it would remove all ${indexed} docs from the index at ${isPostgresUrl(context.options.db) ? context.file : context.options.db}. Nothing was changed. Check the folder, or pass --allow-empty to empty the index.`,
  );
}
