/**
 * The Atlas databases of bench/scale.ts, built once per size and kept in a cache folder across
 * runs (building 1M chunks takes minutes): `<cache>/atlas-<size>-<seed>.db`, written beside as
 * `.partial` and renamed when complete, so an interrupted build is never taken for a finished one.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentSource } from '../src/corpus/parse-document.ts';
import { parsePagesStream } from '../src/corpus/parse-pages.ts';
import { ingestItems, ingestPageWorker } from '../src/index/ingest-items.ts';
import type { IngestItem } from '../src/index/ingest-session.ts';
import { createSqliteIndex } from '../src/index/sqlite.ts';
import type { TokenizerOptions } from '../src/index/tokenize.ts';
import { buildPages, type Passage } from './musique-corpus.ts';

/** The seed of the bench pages (the same as bench/run.ts). */
export const SCALE_SEED = 42;

/**
 * The path of the cached database of `size` chunks, building it first when absent (`log` gets
 * progress). Returns the path and whether it was built now.
 *
 * @example
 * const { path } = await cachedScaleDb({ cache: '/tmp/atlas-scale', size: 10_000, passages, log: console.error });
 */
export async function cachedScaleDb(options: {
  cache: string;
  size: number;
  passages: readonly Passage[];
  log: (line: string) => void;
}): Promise<{ path: string; built: boolean; buildMs?: number }> {
  const { cache, size, passages, log } = options;
  mkdirSync(cache, { recursive: true });
  const path = join(cache, `atlas-${size}-${SCALE_SEED}.db`);
  if (existsSync(path)) return { path, built: false };
  const partial = `${path}.partial`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
  log(`scale: building ${size} chunks into ${path} (cached for later runs)`);
  const start = performance.now();
  const pages = buildPages(passages, size, SCALE_SEED);
  const sources: DocumentSource[] = pages.map((page) => ({ path: page.path, bytes: Buffer.from(page.markdown) }));
  const index = createSqliteIndex({ path: partial, rebuild: true });
  await index.ingestStream(batches(sources, index.tokenizer));
  await index.close();
  renameSync(partial, path);
  const buildMs = performance.now() - start;
  log(`scale: built ${size} chunks in ${Math.round(buildMs / 1000)} s`);
  return { path, built: true, buildMs };
}

async function* batches(sources: DocumentSource[], tokenizer: TokenizerOptions): AsyncGenerator<IngestItem[]> {
  for await (const { results, extras } of parsePagesStream(sources, { worker: ingestPageWorker(tokenizer) })) {
    const docs = results.map((result) => {
      if (!result.ok) throw new Error(`bench page ${result.problems[0]?.file} did not parse: ${JSON.stringify(result.problems)}`);
      return result.doc;
    });
    yield ingestItems({ docs, ...(extras ? { extras } : {}) }, tokenizer);
  }
}
