/**
 * `npm run bench` (last part), or `tsx bench/parse-growth.ts [--json] [--chunks 100000] [--seed 42]`
 *
 * 1. Parse + chunk throughput (parsePages: decode, front matter, blocks, chunks): on the bench's
 *    synthetic pages up to `--chunks` chunks, single-threaded and in worker threads, and on the
 *    real corpora (datasets/orbit, ../shared/corpora/*, ../shared/datasets/*\/docs).
 * 2. Growth: each case of bench/growth-cases.ts at 1x, 2x, 4x and 8x its base size, each run in
 *    a child process of its own so its peak RSS is its own; prints wall and CPU time (best of 3),
 *    peak RSS and the growth exponents log(t8/t1)/log(8) (1 = linear) of wall time, CPU time and
 *    the RSS above an empty run's.
 * Progress goes to stderr; the tables (or one JSON object with --json) to stdout.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readPages } from '../src/corpus/load.ts';
import { parsePages } from '../src/corpus/workers/parse-pages.ts';
import type { DocumentSource } from '../src/corpus/parse-document.ts';
import { sharedFolder } from '../src/testing/shared-folder.ts';
import { createSyntheticCorpus } from './corpus.ts';
import { GROWTH_CASES } from './growth-cases.ts';
import { peakRssMB } from './measure.ts';

const SCALES = [1, 2, 4, 8] as const;
const now = () => performance.now();
const progress = (message: string) => process.stderr.write(`${message}\n`);
const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/** One measured run of parsePages. */
interface Throughput {
  corpus: string;
  threads: number;
  pages: number;
  chunks: number;
  megabytes: number;
  ms: number;
  chunksPerSecond: number;
}

async function throughput(corpus: string, sources: DocumentSource[], threads: number, repeat = 1): Promise<Throughput> {
  await parsePages(sources.slice(0, 500), { threads: 1 }); // warm the JIT of this thread
  let chunks = 0;
  const start = now();
  for (let round = 0; round < repeat; round++) {
    for (const result of await parsePages(sources, { threads })) if (result.ok) chunks += result.doc.chunks.length;
  }
  const ms = now() - start;
  const bytes = sources.reduce((sum, source) => sum + source.bytes.length, 0) * repeat;
  return { corpus, threads, pages: sources.length * repeat, chunks, megabytes: round(bytes / 1e6, 1), ms: Math.round(ms), chunksPerSecond: Math.round((chunks / ms) * 1000) };
}

function syntheticPages(targetChunks: number, seed: number): DocumentSource[] {
  const corpus = createSyntheticCorpus(seed);
  const sources: DocumentSource[] = [];
  // About 6.5 chunks per page (measured); the exact count is reported.
  const pages = Math.ceil(targetChunks / 6.5);
  for (let n = 0; n < pages; n++) {
    const page = corpus.page(n);
    sources.push({ path: page.path, bytes: Buffer.from(page.markdown) });
  }
  return sources;
}

async function realCorpora(): Promise<{ name: string; sources: DocumentSource[] }[]> {
  const folders: { name: string; path: string }[] = [{ name: 'orbit', path: fileURLToPath(new URL('../datasets/orbit/docs', import.meta.url)) }];
  for (const kind of ['corpora', 'datasets']) {
    const shared = sharedFolder(kind, process.env);
    if (!shared.present) continue;
    for (const name of readdirSync(shared.path).sort()) {
      const path = kind === 'datasets' ? join(shared.path, name, 'docs') : join(shared.path, name);
      if (existsSync(path)) folders.push({ name: `${kind}/${name}`, path });
    }
  }
  return Promise.all(folders.map(async ({ name, path }) => ({ name, sources: (await readPages(path)).sources })));
}

/** One growth case at one scale, as measured in its child process. */
interface GrowthRun {
  scale: number;
  bytes: number;
  chunks: number;
  /** Wall time, best of 3. */
  ms: number;
  /** CPU time of the process (all its threads), best of 3: less moved by other processes than wall time. */
  cpuMs: number;
  peakRssMB: number;
}

/** In the child: builds the case's page, parses it (best of 3), prints the measurement as JSON. */
async function runChild(caseName: string, scale: number): Promise<void> {
  const growth = GROWTH_CASES.find((candidate) => candidate.name === caseName);
  const source = growth ? { path: `${caseName}.md`, bytes: Buffer.from(growth.markdown(scale)) } : undefined;
  let best = Infinity;
  let bestCpu = Infinity;
  let chunks = 0;
  for (let attempt = 0; source && attempt < 3; attempt++) {
    const start = now();
    const cpuStart = process.cpuUsage();
    const [result] = await parsePages([source], { threads: 1 });
    best = Math.min(best, now() - start);
    const cpu = process.cpuUsage(cpuStart);
    bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1000);
    if (!result!.ok) throw new Error(`${caseName} x${scale} did not parse: ${JSON.stringify(result!.problems)}`);
    chunks = result!.doc.chunks.length;
  }
  const run: GrowthRun = { scale, bytes: source?.bytes.length ?? 0, chunks, ms: source ? round(best, 1) : 0, cpuMs: source ? round(bestCpu, 1) : 0, peakRssMB: peakRssMB() };
  process.stdout.write(JSON.stringify(run));
}

function child(caseName: string, scale: number): GrowthRun {
  const script = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, [...process.execArgv, script, '--child', caseName, '--scale', String(scale)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(`growth case ${caseName} x${scale} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as GrowthRun;
}

/** log(last/first)/log(8); `null` when the 1x value is too small to measure (under 2 ms or 2 MB). */
const exponent = (first: number, last: number) => (first >= 2 && last > 0 ? round(Math.log(last / first) / Math.log(8), 2) : null);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      chunks: { type: 'string', default: '100000' },
      seed: { type: 'string', default: '42' },
      child: { type: 'string' },
      scale: { type: 'string', default: '1' },
    },
  });
  if (values.child !== undefined) return runChild(values.child, Number(values.scale));

  const cores = availableParallelism();
  const synthetic = syntheticPages(Number(values.chunks), Number(values.seed));
  progress(`parse throughput: ${synthetic.length} synthetic pages, ${cores} cores`);
  const throughputs: Throughput[] = [await throughput('synthetic', synthetic, 1)];
  if (cores > 1) throughputs.push(await throughput('synthetic', synthetic, cores));
  for (const { name, sources } of await realCorpora()) {
    // Small corpora are parsed several times over, so each measurement takes a while.
    const repeat = Math.max(1, Math.ceil(20_000 / Math.max(1, sources.length)));
    throughputs.push(await throughput(name, sources, 1, repeat));
  }

  const empty = child('none', 1);
  const growth = GROWTH_CASES.map((growthCase) => {
    progress(`growth: ${growthCase.name}`);
    const runs = SCALES.map((scale) => child(growthCase.name, scale));
    const first = runs[0]!;
    const last = runs[runs.length - 1]!;
    return {
      name: growthCase.name,
      description: growthCase.description,
      runs,
      timeExponent: exponent(first.ms, last.ms),
      cpuExponent: exponent(first.cpuMs, last.cpuMs),
      rssExponent: exponent(first.peakRssMB - empty.peakRssMB, last.peakRssMB - empty.peakRssMB),
    };
  });

  if (values.json) {
    process.stdout.write(`${JSON.stringify({ cores, emptyRunPeakRssMB: empty.peakRssMB, throughputs, growth })}\n`);
    return;
  }
  const lines = ['Parse + chunk throughput (parsePages)', 'corpus                          threads   pages   chunks     MB      ms   chunks/s'];
  for (const t of throughputs) {
    lines.push(`${t.corpus.padEnd(32)}${String(t.threads).padStart(7)}${String(t.pages).padStart(8)}${String(t.chunks).padStart(9)}${String(t.megabytes).padStart(7)}${String(t.ms).padStart(8)}${String(t.chunksPerSecond).padStart(11)}`);
  }
  lines.push('', `Growth (each run in its own process; peak RSS of an empty run: ${empty.peakRssMB} MB)`);
  lines.push('case                  scale        bytes   chunks   wall ms    CPU ms   peak RSS MB');
  for (const g of growth) {
    for (const run of g.runs) {
      lines.push(`${g.name.padEnd(22)}${`${run.scale}x`.padStart(5)}${String(run.bytes).padStart(13)}${String(run.chunks).padStart(9)}${String(run.ms).padStart(10)}${String(run.cpuMs).padStart(10)}${String(run.peakRssMB).padStart(14)}`);
    }
    lines.push(`${''.padEnd(22)}growth exponent: wall ${g.timeExponent ?? 'n/a'}, CPU ${g.cpuExponent ?? 'n/a'}, RSS above the empty run ${g.rssExponent ?? 'n/a'}   (${g.description})`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
