/**
 * `npm run bench [-- --json] [-- --sizes 10000,100000] [-- --rounds 6] [-- --engines atlas,fts5,...] [-- --python-docs-runs 3]`
 *
 * Atlas beside raw FTS5 (one plain table), MiniSearch, FlexSearch and Orama, in one run, on
 * realistic text: pages built from the real passages of the MuSiQue dev set (../shared, or
 * ATLAS_SHARED_DIR) replicated and regrouped to each size, searched with its real questions
 * (every question `rounds` times, half of the runs filtered to version 3.x), top 10 (Orama only
 * up to --orama-max-chunks, default 20000: it needs minutes at 100k). Every engine
 * runs in a child process of its own (bench/engine-child.ts), so peak RSS is per engine. The
 * engines whose index is a file (Atlas, raw FTS5) are searched by another child that opens it,
 * as `atlas serve` does; the in-memory ones where they were built. Before timing, a child
 * collects the garbage and warms up for at least 2 s on the Graphile Worker dev set's questions
 * (unfiltered and filtered, untimed), so the timings are of searches, not of the JIT compiling
 * them or of the ingest's garbage. Then the start-up of `atlas search` against `node -e`
 * opening the same db; then Chinese ingest and search (bench/chinese.ts); then `atlas ingest` of
 * the Python docs as Sphinx HTML (bench/python-docs.ts; skipped without python3.11-doc). Progress on stderr; tables
 * (or one JSON object with --json) on stdout.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchQuery, ChildResult } from './engine-child.ts';
import type { ChineseResult } from './chinese.ts';
import { benchPythonDocs, PYTHON_DOCS } from './python-docs.ts';
import { ENGINE_NAMES } from './engines.ts';
import { splitFirstPass, summarize } from './measure.ts';
import { benchQueries, buildPages, musiqueFolder, readPassages, readQuestions, warmupQuestions } from './musique-corpus.ts';
import { formatReport, type BenchResult, type EngineResult, type SizeResult } from './report.ts';
import { measureCliIngest, measureStartup, type StartupResult } from './startup.ts';

const childScript = fileURLToPath(new URL('./engine-child.ts', import.meta.url));
/** The engines whose index is a file: ingested by one child, searched by another. */
const FILE_ENGINES = new Set(['atlas', 'fts5']);
const progress = (message: string) => process.stderr.write(`${message}\n`);
const round = (value: number, digits: number) => Number(value.toFixed(digits));

function runChild(args: string[]): ChildResult {
  return runPhase(args) as ChildResult;
}

/** One child's JSON: the fields of the phase it ran (see engine-child.ts). */
function runPhase(args: string[]): Partial<ChildResult> {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', childScript, ...args], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`bench: child ${args.join(' ')} failed with status ${child.status}`);
  return JSON.parse(child.stdout) as Partial<ChildResult>;
}

/** Chinese ingest and search (bench/chinese.ts) in a child of its own; undefined, with a note, when the data set is absent. */
function runChinese(): ChineseResult | undefined {
  const script = fileURLToPath(new URL('./chinese.ts', import.meta.url));
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.status !== 0) {
    progress(`  skipped: ${child.stderr.trim().split('\n').find((line) => line.startsWith('Error: ')) ?? `bench/chinese.ts failed with status ${child.status}`}`);
    return undefined;
  }
  return JSON.parse(child.stdout) as ChineseResult;
}

function summariseChild(result: ChildResult, reference: ChildResult | undefined, questions: number): EngineResult {
  const totalMs = result.ingestMs + (result.parseMs ?? 0);
  const summary: EngineResult = {
    engine: result.engine,
    chunks: result.chunks,
    ingestMs: Math.round(result.ingestMs),
    ingestCpuMs: Math.round(result.ingestCpuMs),
    ingestChunksPerSecond: Math.round((result.chunks / totalMs) * 1000),
    peakRssMB: result.peakRssMB,
    inputRssMB: result.inputRssMB,
  };
  if (result.parseMs !== undefined) summary.parseMs = Math.round(result.parseMs);
  if (result.mainThreadCpuMs !== undefined) summary.mainThreadCpuMs = Math.round(result.mainThreadCpuMs);
  if (result.durations.length > 0) {
    summary.search = {
      ...summarize(result.durations),
      cpu: summarize(result.cpuDurations),
      zeroHit: result.ids.filter((ids) => ids.length === 0).length,
      overlapWithFts5: reference === undefined ? 1 : round(meanOverlap(result.ids, reference.ids), 2),
      passes: splitFirstPass(result.durations, questions),
    };
  }
  if (result.snippetDurations !== undefined) summary.snippetSearch = summarize(result.snippetDurations);
  if (result.reingestUnchangedMs !== undefined) summary.reingestUnchangedMs = Math.round(result.reingestUnchangedMs);
  if (result.reingestOnePercentChangedMs !== undefined) summary.reingestOnePercentChangedMs = Math.round(result.reingestOnePercentChangedMs);
  return summary;
}

function meanOverlap(a: string[][], b: string[][]): number {
  const shares = a.map((ids, n) => {
    const other = new Set(b[n] ?? []);
    const size = Math.max(ids.length, other.size);
    return size === 0 ? 1 : ids.filter((id) => other.has(id)).length / size;
  });
  return shares.reduce((sum, share) => sum + share, 0) / Math.max(1, shares.length);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      sizes: { type: 'string', default: '10000,100000' },
      rounds: { type: 'string', default: '6' },
      seed: { type: 'string', default: '42' },
      engines: { type: 'string', default: ENGINE_NAMES.join(',') },
      'startup-runs': { type: 'string', default: '7' },
      'python-docs-runs': { type: 'string', default: '3' },
      // Orama takes minutes at 100k (about 0.3 s a query): by default it runs at the smaller sizes only.
      'orama-max-chunks': { type: 'string', default: '20000' },
      // stream: parsing (worker threads) overlapped with the inserts, as atlas ingest does; sequential: parse, then ingest.
      'parse-mode': { type: 'string', default: 'stream' },
    },
  });
  const engines = values.engines.split(',').filter((name) => name !== '');
  const seed = Number(values.seed);
  const folder = musiqueFolder(process.env);
  const passages = readPassages(folder);
  const questions = readQuestions(folder);
  // Every question once per pass, the first pass first (splitFirstPass reads it so).
  const queries = benchQueries(questions, Number(values.rounds));
  // Each engine warms up on other real questions, unfiltered and filtered, untimed (engine-child.ts).
  const warmup = benchQueries(warmupQuestions(process.env), 2);
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-bench-'));
  const started = performance.now();
  try {
    const sizes: SizeResult[] = [];
    let startupDb: string | undefined;
    for (const size of values.sizes.split(',').map(Number)) {
      progress(`bench: ${size} chunks (${passages.length} MuSiQue passages, ${queries.length} queries)`);
      const pages = buildPages(passages, size, seed);
      const pagesPath = join(scratch, `pages-${size}.json`);
      const docsPath = join(scratch, `docs-${size}.json`);
      const queriesPath = join(scratch, 'queries.json');
      const warmupPath = join(scratch, 'warmup-queries.json');
      writeFileSync(warmupPath, JSON.stringify(warmup));
      writeFileSync(pagesPath, pages.map((page) => JSON.stringify(page)).join('\n'));
      writeFileSync(queriesPath, JSON.stringify(queries));
      const parsed = runChild(['--engine', 'atlas-parse', '--parse-mode', values['parse-mode'], '--pages', pagesPath, '--write-docs', docsPath, '--db', join(scratch, `atlas-parse-${size}.db`)]);
      progress(
        parsed.parseMs === undefined
          ? `  atlas-parse (${values['parse-mode']}): parse and ingest ${Math.round(parsed.ingestMs)} ms (CPU: main thread ${Math.round(parsed.mainThreadCpuMs ?? NaN)} ms, all threads ${Math.round(parsed.ingestCpuMs)} ms)`
          : `  atlas-parse (${values['parse-mode']}): parse ${Math.round(parsed.parseMs)} ms, ingest ${Math.round(parsed.ingestMs)} ms (CPU of the ingest: main thread ${Math.round(parsed.mainThreadCpuMs ?? NaN)} ms)`,
      );
      // The same pages as files, ingested by the CLI as a user runs it.
      const folder = join(scratch, `pages-${size}`);
      for (const page of pages) {
        mkdirSync(dirname(join(folder, page.path)), { recursive: true });
        writeFileSync(join(folder, page.path), page.markdown);
      }
      const cliIngestMs = measureCliIngest({ folder, db: join(scratch, `cli-${size}.db`) });
      rmSync(folder, { recursive: true, force: true });
      progress(`  atlas ingest (CLI, pages on disk): ${cliIngestMs} ms`);
      const children: ChildResult[] = [];
      for (const engine of engines) {
        if (engine === 'orama' && size > Number(values['orama-max-chunks'])) {
          progress(`  orama: skipped above ${values['orama-max-chunks']} chunks (--orama-max-chunks)`);
          continue;
        }
        const db = join(scratch, `${engine}-${size}.db`);
        const args = ['--engine', engine, '--docs', docsPath, '--queries', queriesPath, ...(warmup.length > 0 ? ['--warmup-queries', warmupPath] : []), '--db', db];
        // An index in a file is searched by a process that opens it (engine-child.ts, Phase), as atlas serve does.
        const result = FILE_ENGINES.has(engine)
          ? ({
              ...runPhase([...args, '--phase', 'ingest']),
              ...runPhase([...args, '--phase', 'search']),
              ...(engine === 'atlas' ? runPhase([...args, '--phase', 'reingest']) : {}),
            } as ChildResult)
          : runChild(args);
        progress(`  ${engine}: ingest ${Math.round(result.ingestMs)} ms, peak RSS ${result.peakRssMB} MB`);
        children.push(result);
        if (engine === 'atlas' && startupDb === undefined) {
          startupDb = join(scratch, 'startup.db');
          copyFileSync(db, startupDb);
        }
      }
      const reference = children.find((child) => child.engine === 'fts5');
      sizes.push({
        size,
        chunks: parsed.chunks,
        pages: pages.length,
        markdownMB: round(pages.reduce((sum, page) => sum + Buffer.byteLength(page.markdown), 0) / 1e6, 1),
        queries: queries.length,
        cliIngestMs,
        engines: [summariseChild(parsed, reference, questions.length), ...children.map((child) => summariseChild(child, reference, questions.length))],
      });
      rmSync(docsPath, { force: true });
    }
    let startup: StartupResult | undefined;
    if (startupDb !== undefined && Number(values['startup-runs']) > 0) {
      progress('bench: start-up');
      startup = measureStartup({ db: startupDb, query: 'film director', runs: Number(values['startup-runs']) });
    }
    progress('bench: Chinese (CMRC 2018 dev, bench/chinese.ts)');
    const chinese = runChinese();
    const pythonDocsRuns = Number(values['python-docs-runs']);
    if (pythonDocsRuns > 0) progress('bench: the Python docs as Sphinx HTML (bench/python-docs.ts)');
    const pythonDocs = pythonDocsRuns > 0 ? benchPythonDocs(PYTHON_DOCS, pythonDocsRuns, progress) : undefined;
    const result: BenchResult = {
      environment: { node: process.version, platform: `${process.platform}-${process.arch}`, seed, totalSeconds: round((performance.now() - started) / 1000, 1) },
      sizes,
      ...(startup === undefined ? {} : { startup }),
      ...(chinese === undefined ? {} : { chinese }),
      ...(pythonDocs === undefined ? {} : { pythonDocs }),
    };
    process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${formatReport(result)}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
