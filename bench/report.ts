import type { PassTimings, Timings } from './measure.ts';
import { formatChinese, type ChineseResult } from './chinese.ts';
import { formatPythonDocs, type PythonDocsResult } from './python-docs.ts';
import type { StartupResult } from './startup.ts';

/** One engine at one size, summarised. */
export interface EngineResult {
  engine: string;
  chunks: number;
  ingestMs: number;
  ingestChunksPerSecond: number;
  parseMs?: number;
  peakRssMB: number;
  inputRssMB: number;
  /** CPU ms of the ingest (parse excluded when timed apart), every thread. */
  ingestCpuMs: number;
  /** atlas incl. parsing, on Linux: CPU ms of the main thread alone (the one writing SQLite). */
  mainThreadCpuMs?: number;
  /** Wall-clock timings, and `cpu`: the same queries' CPU time, less sensitive to a shared machine. */
  search?: Timings & { cpu: Timings; zeroHit: number; overlapWithFts5: number; passes: PassTimings };
  snippetSearch?: Timings;
  reingestUnchangedMs?: number;
  reingestOnePercentChangedMs?: number;
}

/** Everything measured at one corpus size. */
export interface SizeResult {
  size: number;
  chunks: number;
  pages: number;
  markdownMB: number;
  queries: number;
  /** Wall ms of `node bin/atlas.js ingest` of the same pages as files (bench/startup.ts measureCliIngest). */
  cliIngestMs: number;
  engines: EngineResult[];
}

/** The whole run. */
export interface BenchResult {
  environment: { node: string; platform: string; seed: number; totalSeconds: number };
  sizes: SizeResult[];
  startup?: StartupResult;
  chinese?: ChineseResult;
  pythonDocs?: PythonDocsResult;
}

const LABELS: Record<string, string> = {
  'atlas-parse': 'atlas incl. parsing',
  atlas: 'atlas (parsed docs)',
};

/**
 * Renders a bench run as plain-text tables: per size ingest and search side by side with ratios
 * to raw FTS5 and MiniSearch, the growth exponents between the first and last size, start-up,
 * and the targets checked.
 *
 * @example
 * process.stdout.write(formatReport(result));
 */
export function formatReport(result: BenchResult): string {
  const parts = result.sizes.flatMap((size) => [ingestTable(size), searchTable(size)]);
  if (result.sizes.length > 1) parts.push(growthTable(result.sizes));
  if (result.startup !== undefined) {
    const s = result.startup;
    parts.push(
      `Start-up (median of ${s.runs} whole processes, ms)\n${grid([
        ['node bin/atlas.js search', 'npx atlas search', 'node -e (better-sqlite3, one query)', 'atlas ÷ node -e'],
        [s.atlasMs, s.npxAtlasMs, s.nodeMs, s.ratio],
      ])}`,
    );
  }
  if (result.chinese !== undefined) parts.push(formatChinese(result.chinese));
  if (result.pythonDocs !== undefined) parts.push(formatPythonDocs(result.pythonDocs));
  parts.push(targets(result));
  parts.push(JSON.stringify(result.environment));
  return parts.join('\n\n');
}

function ingestTable(size: SizeResult): string {
  const fts5 = find(size, 'fts5');
  const rows = size.engines.map((engine) => [
    LABELS[engine.engine] ?? engine.engine,
    engine.ingestChunksPerSecond,
    engine.parseMs ?? '-',
    engine.ingestMs,
    engine.ingestCpuMs,
    engine.peakRssMB,
    engine.inputRssMB,
    ratio(engine.peakRssMB, fts5?.peakRssMB),
    ratio(engine.peakRssMB - engine.inputRssMB, fts5 === undefined ? undefined : fts5.peakRssMB - fts5.inputRssMB),
    ratio(engine.ingestChunksPerSecond, fts5?.ingestChunksPerSecond),
  ]);
  const atlas = find(size, 'atlas');
  const reingest =
    atlas?.reingestUnchangedMs === undefined ? '' : `\natlas re-ingest: unchanged ${atlas.reingestUnchangedMs} ms, 1% of pages changed ${atlas.reingestOnePercentChangedMs} ms`;
  const cli = `\natlas ingest <folder> (the CLI, whole process: start-up, listing and reading the pages, parsing, writing): ${size.cliIngestMs} ms, ${Math.round(size.chunks / (size.cliIngestMs / 1000))} chunks/s`;
  return `Ingest at ${size.chunks} chunks (${size.pages} pages, ${size.markdownMB} MB of markdown)\n${grid([
    ['engine', 'chunks/s', 'parse ms', 'ingest ms', 'ingest cpu ms', 'peak RSS MB', 'input RSS MB', 'RSS ÷ fts5', '(peak - input) ÷ fts5', 'chunks/s ÷ fts5'],
    ...rows,
  ])}${reingest}${cli}`;
}

function searchTable(size: SizeResult): string {
  const fts5 = find(size, 'fts5')?.search;
  const mini = find(size, 'minisearch')?.search;
  const rows: Array<Array<string | number>> = [];
  for (const engine of size.engines) {
    if (engine.search === undefined) continue;
    const s = engine.search;
    rows.push([
      LABELS[engine.engine] ?? engine.engine, ms(s.p50), ms(s.p99), ratio(s.p99, s.p50), ratio(s.p50, fts5?.p50), ratio(s.p50, mini?.p50),
      ms(s.cpu.p50), ms(s.cpu.p99), ratio(s.cpu.p50, fts5?.cpu.p50), ratio(s.cpu.p50, mini?.cpu.p50), s.zeroHit, s.overlapWithFts5,
    ]);
    if (engine.snippetSearch !== undefined) {
      const t = engine.snippetSearch;
      rows.push(['atlas + 10 snippets', ms(t.p50), ms(t.p99), ratio(t.p99, t.p50), ratio(t.p50, fts5?.p50), ratio(t.p50, mini?.p50), '-', '-', '-', '-', '-', '-']);
    }
  }
  return `Search at ${size.chunks} chunks (${size.queries} real questions, top 10, half filtered to version 3.x; ms; cpu = the process's CPU time per query)\n${grid([
    ['engine', 'p50', 'p99', 'p99 ÷ p50', 'p50 ÷ fts5', 'p50 ÷ minisearch', 'cpu p50', 'cpu p99', 'cpu p50 ÷ fts5', 'cpu p50 ÷ mini', 'zero-hit', 'overlap@10 fts5'],
    ...rows,
  ])}`;
}

/** log(last / first) / log(chunks last / chunks first): 1 is linear. */
function growthTable(sizes: SizeResult[]): string {
  const first = sizes[0]!;
  const last = sizes[sizes.length - 1]!;
  const exponent = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || a <= 0 || b <= 0 ? '-' : (Math.log(b / a) / Math.log(last.chunks / first.chunks)).toFixed(2);
  const rows = first.engines.map((engine) => {
    const later = last.engines.find((other) => other.engine === engine.engine);
    const time = (result: EngineResult | undefined) => (result === undefined ? undefined : result.ingestMs + (result.parseMs ?? 0));
    return [
      LABELS[engine.engine] ?? engine.engine,
      exponent(time(engine), time(later)),
      exponent(engine.search?.p50, later?.search?.p50),
      exponent(engine.search?.p99, later?.search?.p99),
      exponent(engine.peakRssMB, later?.peakRssMB),
    ];
  });
  return `Growth exponent from ${first.chunks} to ${last.chunks} chunks (time ∝ chunks^e; 1 = linear)\n${grid([
    ['engine', 'ingest time', 'search p50', 'search p99', 'peak RSS'],
    ...rows,
  ])}`;
}

function targets(result: BenchResult): string {
  const lines: string[] = [];
  const check = (label: string, value: number | undefined, limit: number, atMost: boolean) => {
    if (value === undefined) return;
    const ok = atMost ? value <= limit : value >= limit;
    lines.push(`${ok ? 'PASS' : 'FAIL'}  ${label}: ${round(value)} (target ${atMost ? '<=' : '>='} ${limit})`);
  };
  const last = result.sizes[result.sizes.length - 1];
  if (last !== undefined) {
    check(`ingest chunks/s incl. parsing at ${last.chunks}`, find(last, 'atlas-parse')?.ingestChunksPerSecond, 20_000, false);
    check(`ingest chunks/s without parsing at ${last.chunks}`, find(last, 'atlas')?.ingestChunksPerSecond, 20_000, false);
    const fts5Rss = find(last, 'fts5')?.peakRssMB;
    check(`peak RSS ÷ fts5 at ${last.chunks} (parsed docs)`, divide(find(last, 'atlas')?.peakRssMB, fts5Rss), 1.5, true);
    check(`peak RSS ÷ fts5 at ${last.chunks} (incl. parsing)`, divide(find(last, 'atlas-parse')?.peakRssMB, fts5Rss), 1.5, true);
  }
  for (const size of result.sizes) {
    const atlas = find(size, 'atlas')?.search;
    check(`search p50 ÷ fts5 at ${size.chunks}`, divide(atlas?.p50, find(size, 'fts5')?.search?.p50), 1.2, true);
    check(`search p50 ÷ minisearch at ${size.chunks}`, divide(atlas?.p50, find(size, 'minisearch')?.search?.p50), 1, true);
    check(`search p99 ÷ p50 at ${size.chunks}`, divide(atlas?.p99, atlas?.p50), 3, true);
    // Not a target: where the p99 comes from. A question's first search reads its rows and pages
    // for the first time; the later passes repeat the same questions.
    const passes = atlas?.passes;
    if (passes !== undefined && passes.repeats.p50 > 0) {
      lines.push(
        `info  search at ${size.chunks}: each question's first search p50 ${ms(passes.first.p50)} (${ratio(passes.first.p50, atlas?.p50)} × p50), ` +
          `the repeats p50 ${ms(passes.repeats.p50)} and p99 ${ms(passes.repeats.p99)} (p99 ÷ p50 ${ratio(passes.repeats.p99, passes.repeats.p50)})`,
      );
    }
    // Not a target: the process's CPU time counts every thread, and a query that a collection's
    // marking threads or the JIT's compiler thread ran beside has CPU time above its wall time.
    const cpuRatio = divide(atlas?.cpu.p99, atlas?.cpu.p50);
    if (cpuRatio !== undefined) lines.push(`info  search CPU p99 ÷ CPU p50 at ${size.chunks} (every thread of the process): ${round(cpuRatio)}`);
  }
  if (result.startup !== undefined) check('start-up ÷ node -e', result.startup.ratio, 2, true);
  return `Targets (issue 10)\n${lines.join('\n')}`;
}

const find = (size: SizeResult, engine: string) => size.engines.find((result) => result.engine === engine);
const divide = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? undefined : a / b);
const ratio = (a: number | undefined, b: number | undefined) => {
  const value = divide(a, b);
  return value === undefined ? '-' : value.toFixed(2);
};
const ms = (value: number) => value.toFixed(2);
const round = (value: number) => (Math.abs(value) >= 100 ? Math.round(value) : Number(value.toFixed(2)));

function grid(rows: Array<Array<string | number>>): string {
  const cells = rows.map((row) => row.map(String));
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')).join('\n');
}
