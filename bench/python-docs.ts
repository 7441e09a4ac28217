/**
 * A real generated site (issue 40): `atlas ingest` of Debian's python3.11-doc, the Python
 * documentation as Sphinx HTML (530 pages, 51 MB), as a user runs it: the built CLI
 * (dist/cli-bundle/, built first if stale) in a fresh process per run, into a new index file.
 * Reports, per run and as the median, the wall time (spawn to exit), the pages per second, and
 * the CPU seconds of the whole process (its main thread and its parse workers: `process.cpuUsage`
 * read as the ingest returns). Without the package it prints "skipped: python3.11-doc not
 * installed" and exits 0. A part of `npm run bench`; alone:
 * `npx tsx bench/python-docs.ts [--runs 3] [--dir /usr/share/doc/python3.11/html] [--json]`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuild } from './startup.ts';

/** Where Debian's python3.11-doc puts the HTML. */
export const PYTHON_DOCS = '/usr/share/doc/python3.11/html';

/** One ingest of the Python docs. */
export interface PythonDocsRun {
  pages: number;
  chunks: number;
  wallMs: number;
  /** User + system CPU of the whole process, all threads. */
  cpuMs: number;
  pagesPerSecond: number;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The script a run's child executes: the CLI bundle's `runCli` with `ingest`, then the process's
 * CPU time and the report's counts on stderr (stdout holds the CLI's JSON report).
 */
function childScript(): string {
  const module = (name: string) => JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'cli-bundle', name)).href);
  return [
    `const { runCli } = await import(${module('main.js')});`,
    `const { processIO } = await import(${module('io.js')});`,
    'process.exitCode = await runCli(process.argv.slice(1), processIO());',
    'const cpu = process.cpuUsage();',
    "process.stderr.write(`\\nbench-cpu-ms ${(cpu.user + cpu.system) / 1000}\\n`);",
  ].join('\n');
}

/**
 * Ingests `dir` once into a new index file in a fresh process.
 *
 * @example
 * measurePythonDocs(PYTHON_DOCS); // { pages: 530, chunks: 15121, wallMs: 3100, cpuMs: 5200, pagesPerSecond: 171 }
 */
export function measurePythonDocs(dir: string): PythonDocsRun {
  ensureBuild();
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-python-docs-'));
  try {
    const start = performance.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', childScript(), 'ingest', dir, '--db', join(scratch, 'python.db'), '--json'], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const wallMs = performance.now() - start;
    if (child.status !== 0) throw new Error(`bench: atlas ingest ${dir} failed (${child.status}): ${child.stderr}`);
    const report = JSON.parse(child.stdout) as { docs: number; chunks?: number };
    const cpuMs = Number(/bench-cpu-ms (\S+)/.exec(child.stderr)?.[1]);
    const pages = report.docs;
    return { pages, chunks: report.chunks ?? 0, wallMs: Math.round(wallMs), cpuMs: Math.round(cpuMs), pagesPerSecond: Math.round((pages / wallMs) * 1000) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What {@link benchPythonDocs} reports: the median of the runs, and each run; or why it was skipped. */
export type PythonDocsResult = (Omit<PythonDocsRun, 'chunks'> & { chunks: number; loadAverage: number; runs: PythonDocsRun[] }) | { skipped: string };

/**
 * `runs` ingests of the Python docs at `dir` (see {@link measurePythonDocs}), or `{ skipped }`
 * when the folder is missing.
 *
 * @example
 * formatPythonDocs(benchPythonDocs(PYTHON_DOCS, 3));
 */
export function benchPythonDocs(dir: string, runs: number, progress: (message: string) => void = () => {}): PythonDocsResult {
  if (!existsSync(dir)) return { skipped: `python3.11-doc not installed (no ${dir}; apt-get install python3.11-doc)` };
  const measured: PythonDocsRun[] = [];
  for (let run = 0; run < runs; run += 1) {
    measured.push(measurePythonDocs(dir));
    progress(`  run ${run + 1}: ${JSON.stringify(measured.at(-1))}`);
  }
  const median = (pick: (run: PythonDocsRun) => number) => measured.map(pick).sort((a, b) => a - b)[Math.floor(measured.length / 2)]!;
  return {
    pages: measured[0]!.pages,
    chunks: measured[0]!.chunks,
    wallMs: median((run) => run.wallMs),
    cpuMs: median((run) => run.cpuMs),
    pagesPerSecond: median((run) => run.pagesPerSecond),
    loadAverage: Number(loadavg()[0]!.toFixed(1)),
    runs: measured,
  };
}

/** The result as one paragraph of the bench report. */
export function formatPythonDocs(result: PythonDocsResult): string {
  if ('skipped' in result) return `Python docs ingest: skipped: ${result.skipped}`;
  return [
    `Python docs ingest (python3.11-doc, Sphinx HTML: ${result.pages} pages, ${result.chunks} chunks; median of ${result.runs.length} fresh \`atlas ingest\` processes)`,
    `  ${result.wallMs} ms wall, ${result.pagesPerSecond} pages/s (target 300), ${(result.cpuMs / 1000).toFixed(2)} CPU-s of main thread and workers; load average ${result.loadAverage}`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, dir: { type: 'string', default: PYTHON_DOCS }, json: { type: 'boolean', default: false } } });
  const result = benchPythonDocs(values.dir!, Number(values.runs), (message) => process.stderr.write(`${message}\n`));
  process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${formatPythonDocs(result)}\n`);
}
