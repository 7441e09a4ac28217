/**
 * Lucene 8.7 (BM25, block-max WAND) as a reference engine of bench/scale.ts, run when this machine
 * has a JDK and Lucene's jars (Debian: `apt-get install default-jdk-headless liblucene8-java`, or
 * `ATLAS_LUCENE_JARS` naming the jars). Never a dependency of Atlas: it is here so that "in
 * Lucene's class" is measured on the same chunks, tokens and questions as Atlas, in the same run.
 * bench/lucene/LuceneScale.java indexes and searches; this module writes its inputs and reads
 * its report.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createFts5Tokenizer } from '../src/index/analysis/fts5-tokens.ts';
import { SCHEMA_VERSION } from '../src/index/sqlite/schema.ts';
import type { BenchQuery } from './engine-child.ts';
import { rankedColumns, rankedTokens, SCALE_SEED } from './scale-db.ts';

/** The jars LuceneScale.java needs, by name (Debian's liblucene8-java installs them in /usr/share/java). */
const JARS = ['lucene-core', 'lucene-analyzers-common'] as const;
/** Where Debian's liblucene8-java puts its jars. */
const DEBIAN_JARS = '/usr/share/java';
/**
 * The JVM's warm-up before timing: longer than the Node engines' (bench/measure.ts WARMUP_MS),
 * since HotSpot's optimising compiler takes longer to settle than V8's.
 */
const LUCENE_WARMUP_MS = 5_000;
const SOURCE = fileURLToPath(new URL('./lucene/LuceneScale.java', import.meta.url));

/**
 * The class path for LuceneScale.java: `ATLAS_LUCENE_JARS` when set (a class path), else Lucene
 * 8's jars from Debian's liblucene8-java; or why Lucene cannot run here.
 *
 * @example
 * luceneClasspath({}, () => ['lucene-core-8.7.0.jar', 'lucene-analyzers-common-8.7.0.jar'], () => true);
 * // { classpath: '/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar' }
 */
export function luceneClasspath(
  env: Record<string, string | undefined>,
  list: (folder: string) => string[] = (folder) => (existsSync(folder) ? readdirSync(folder) : []),
  hasJava: () => boolean = () => spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0,
): { classpath: string } | { missing: string } {
  if (!hasJava()) return { missing: 'no `java` on PATH (Debian: apt-get install default-jdk-headless liblucene8-java)' };
  if (env.ATLAS_LUCENE_JARS !== undefined && env.ATLAS_LUCENE_JARS !== '') return { classpath: env.ATLAS_LUCENE_JARS };
  const names = list(DEBIAN_JARS);
  const jars = JARS.map((jar) => names.filter((name) => new RegExp(`^${jar}-8\\.[0-9.]+\\.jar$`).test(name)).sort().at(-1));
  const absent = JARS.filter((_, n) => jars[n] === undefined);
  if (absent.length > 0) {
    return { missing: `no ${absent.join(', ')} 8.x jar in ${DEBIAN_JARS} (Debian: apt-get install liblucene8-java, or set ATLAS_LUCENE_JARS to a class path holding them)` };
  }
  return { classpath: jars.map((jar) => `${DEBIAN_JARS}/${jar}`).join(':') };
}

/**
 * A query as LuceneScale.java reads it: its version (`-` for none), a tab, and the tokens Atlas
 * ranks for it (its search terms through its FTS5 tokenizer), space-separated.
 *
 * @example
 * luceneQueryLine({ query: 'Where was the Tao Society of Artists founded?', version: '3.x' }, tokens);
 * // '3.x\ttao societi artist found'
 */
export function luceneQueryLine(query: BenchQuery, tokens: { tokens(text: string): string[] }): string {
  return `${query.version ?? '-'}\t${rankedTokens(query.query, tokens).join(' ')}`;
}

/**
 * The Lucene index beside the Atlas database at `atlasPath` (`<cache>/lucene-<size>-<seed>-v<schema>`),
 * built once from its chunks: each chunk's five ranked columns (title, heading, the headings
 * between, body, identifier expansions: scale-db.ts `rankedColumns`) through
 * Atlas's FTS5 tokenizer, one Lucene document each. Written as `.partial` and renamed.
 *
 * @example
 * const folder = await cachedLuceneIndex({ atlasPath, cache: '/tmp/atlas-scale', size: 10_000, classpath, log: console.error });
 */
export async function cachedLuceneIndex(options: { atlasPath: string; cache: string; size: number; classpath: string; log: (line: string) => void }): Promise<string> {
  const folder = join(options.cache, `lucene-${options.size}-${SCALE_SEED}-v${SCHEMA_VERSION}`);
  if (existsSync(folder)) return folder;
  const partial = `${folder}.partial`;
  const chunksPath = `${folder}.tsv`;
  rmSync(partial, { recursive: true, force: true });
  options.log(`scale: building the Lucene index ${folder}`);
  const source = new Database(options.atlasPath, { readonly: true });
  const out = createWriteStream(chunksPath);
  const tokens = createFts5Tokenizer({ porter: true });
  try {
    for (const chunk of rankedColumns(source)) {
      const words = chunk.columns.flatMap((text) => tokens.tokens(text));
      if (!out.write(`${chunk.chunkId}\t${chunk.appliesTo}\t${words.join(' ')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    source.close();
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  const indexed = spawnSync('java', ['-cp', options.classpath, SOURCE, 'index', chunksPath, partial], { stdio: ['ignore', 'inherit', 'inherit'] });
  rmSync(chunksPath, { force: true });
  if (indexed.status !== 0) throw new Error(`bench:scale: Lucene's indexing of ${options.atlasPath} failed with status ${indexed.status}`);
  renameSync(partial, folder);
  return folder;
}

/** What LuceneScale.java's search reports (bench/scale.ts's child result). */
export interface LuceneResult {
  engine: 'lucene';
  durations: number[];
  cpuDurations: number[];
  ids: string[][];
  peakRssMB: number;
  openMs: number;
}

/**
 * Times `queries` on the Lucene index in `folder` in a JVM of its own (heap capped at 1 GB),
 * after warming up on `warmup` for `warmupMs` (default 5 s): the same queries, order and k as
 * the other engines.
 *
 * @example
 * const result = runLucene({ folder, queries, warmup, k: 10, classpath, cache: '/tmp/atlas-scale' });
 */
export function runLucene(options: {
  folder: string;
  queries: readonly BenchQuery[];
  warmup: readonly BenchQuery[];
  k: number;
  classpath: string;
  cache: string;
  warmupMs?: number;
}): LuceneResult {
  const tokens = createFts5Tokenizer({ porter: true });
  const queriesPath = join(options.cache, 'lucene-queries.tsv');
  const warmupPath = join(options.cache, 'lucene-warmup.tsv');
  writeFileSync(queriesPath, `${options.queries.map((query) => luceneQueryLine(query, tokens)).join('\n')}\n`);
  writeFileSync(warmupPath, `${options.warmup.map((query) => luceneQueryLine(query, tokens)).join('\n')}\n`);
  const child = spawnSync(
    'java',
    ['-Xmx1g', '-cp', options.classpath, SOURCE, 'search', options.folder, queriesPath, warmupPath, String(options.k), String(options.warmupMs ?? LUCENE_WARMUP_MS)],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (child.status !== 0) throw new Error(`bench:scale: Lucene's search of ${options.folder} failed with status ${child.status}`);
  return JSON.parse(child.stdout) as LuceneResult;
}
