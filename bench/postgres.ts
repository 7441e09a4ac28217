/**
 * `npx tsx bench/postgres.ts [--url postgres://...] [--chunks 100000] [--rounds 2] [--skip-parity] [--skip-scale] [--json]`
 *
 * The PostgreSQL backend beside the SQLite one:
 * - parity: recall@5/@15 of the gold pages, top-15 overlap and identical top 5 on datasets/orbit,
 *   graphile-worker-dev and musique-dev (../shared or ATLAS_SHARED_DIR), BM25 and ts_rank;
 * - scale: pages built from the MuSiQue passages (bench/musique-corpus.ts) to `--chunks`
 *   chunks, ingested into a fresh schema (chunks per second, one transaction) and into an SQLite
 *   file; then every MuSiQue question `--rounds` times (half of the runs filtered to 3.x), top
 *   10, p50/p99 per backend and the top-10 overlap.
 *
 * The server is `--url`, else ATLAS_TEST_POSTGRES_URL, else one started for the run with
 * scripts/test-postgres.sh (and stopped at the end). docs/postgres.md records the numbers and the tolerance.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/corpus/index.ts';
import { createPostgresIndex } from '../src/index/postgres/postgres.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import type { IndexBackend } from '../src/index/types.ts';
import { summarize, type Timings } from './measure.ts';
import { buildPages, musiqueFolder, readPassages, readQuestions } from './musique-corpus.ts';
import { measureParity, type ParityResult } from './postgres-parity.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Parity tolerance (docs/postgres.md): with BM25, PostgreSQL's recall@5 and recall@15 of the gold
 * pages may differ from SQLite's by at most 0.02 on each dataset, and its top 15 must hold at
 * least 95% of SQLite's (the top 10 at scale). The rankings differ only where the tokenisers do
 * (Snowball's porter against FTS5's, PostgreSQL's parser on a few words) and in score rounding.
 */
const RECALL_TOLERANCE = 0.02;
const OVERLAP_TOLERANCE = 0.95;

/** Whether a BM25 parity row is within the tolerance (ts_rank rows are reported, not judged). */
function withinTolerance(row: ParityResult): boolean {
  return (
    Math.abs(row.postgres.recallAt5 - row.sqlite.recallAt5) <= RECALL_TOLERANCE &&
    Math.abs(row.postgres.recallAt15 - row.sqlite.recallAt15) <= RECALL_TOLERANCE &&
    row.top15Overlap >= OVERLAP_TOLERANCE
  );
}

/** One backend at scale. */
interface ScaleResult {
  backend: 'sqlite' | 'postgres';
  chunks: number;
  ingestMs: number;
  chunksPerSecond: number;
  search: Timings;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      chunks: { type: 'string', default: '100000' },
      rounds: { type: 'string', default: '2' },
      'skip-parity': { type: 'boolean', default: false },
      'skip-scale': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const server = startServer(values.url);
  try {
    const parity = values['skip-parity'] ? [] : await runParity(server.url);
    const scale = values['skip-scale'] ? undefined : await runScale(server.url, Number(values.chunks), Number(values.rounds));
    const failed = parity.filter((row) => row.ranking === 'bm25' && !withinTolerance(row)).map((row) => row.dataset);
    if (scale && scale.top10Overlap < OVERLAP_TOLERANCE) failed.push(`scale (top-10 overlap ${scale.top10Overlap})`);
    if (values.json) process.stdout.write(`${JSON.stringify({ parity, scale, failed })}\n`);
    else process.stdout.write(formatReport(parity, scale));
    if (failed.length > 0) {
      process.stderr.write(`bench: PostgreSQL ranking is outside the parity tolerance on ${failed.join(', ')} (docs/postgres.md)\n`);
      process.exitCode = 1;
    }
  } finally {
    server.stop();
  }
}

/** The server of the run: given, from the environment, or started here (and stopped by `stop`). */
function startServer(given: string | undefined): { url: string; stop: () => void } {
  const url = given ?? process.env.ATLAS_TEST_POSTGRES_URL;
  if (url) return { url, stop: () => {} };
  const env = { ...process.env, ATLAS_PG_DIR: join(tmpdir(), `atlas-bench-postgres-${process.pid}`) };
  const script = join(repoRoot, 'scripts/test-postgres.sh');
  const started = execFileSync('bash', [script, 'start'], { env, encoding: 'utf8' }).trim();
  process.stderr.write(`bench: started PostgreSQL at ${started}\n`);
  return { url: started, stop: () => execFileSync('bash', [script, 'stop'], { env, stdio: 'inherit' }) };
}

function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('schema', schema);
  return parsed.href;
}

async function runParity(url: string): Promise<ParityResult[]> {
  const shared = process.env.ATLAS_SHARED_DIR ?? join(repoRoot, '../shared');
  const sets: Array<[string, string]> = [
    ['orbit', join(repoRoot, 'datasets/orbit')],
    ['graphile-worker-dev', join(shared, 'datasets/graphile-worker-dev')],
    ['musique-dev', join(shared, 'datasets/musique-dev')],
  ];
  const results: ParityResult[] = [];
  for (const ranking of ['bm25'] as const) {
    for (const [name, dir] of sets) {
      process.stderr.write(`bench: parity ${name} (${ranking})\n`);
      results.push(await measureParity(name, dir, withSchema(url, `bench_parity_${name.replaceAll('-', '_')}_${ranking}`), ranking));
    }
  }
  return results;
}

async function runScale(url: string, chunks: number, rounds: number): Promise<{ results: ScaleResult[]; top10Overlap: number }> {
  const folder = musiqueFolder(process.env);
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-bench-pg-'));
  try {
    process.stderr.write(`bench: building and parsing ~${chunks} chunks\n`);
    for (const page of buildPages(readPassages(folder), chunks, 42)) {
      const file = join(scratch, 'docs', page.path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, page.markdown);
    }
    const { docs } = await loadCorpus(join(scratch, 'docs'));
    const total = docs.reduce((sum, doc) => sum + doc.chunks.length, 0);
    const questions = readQuestions(folder);
    const runs = Array.from({ length: rounds }, () => questions).flat().map((query, n) => ({ query, filter: n % 2 === 1 ? { version: '3.x' } : undefined }));
    const sqlite = createSqliteIndex({ path: join(scratch, 'index.db') });
    const postgres = createPostgresIndex({ url: withSchema(url, 'bench_scale'), rebuild: true });
    try {
      const results: ScaleResult[] = [];
      const tops = new Map<string, string[][]>();
      for (const [backend, index] of [['sqlite', sqlite], ['postgres', postgres]] as Array<['sqlite' | 'postgres', IndexBackend]>) {
        process.stderr.write(`bench: ingesting ${total} chunks into ${backend}\n`);
        const start = performance.now();
        await index.ingest(docs);
        const ingestMs = performance.now() - start;
        const durations: number[] = [];
        const top: string[][] = [];
        for (const run of runs.slice(0, 20)) await index.search(run.query, { k: 10, ...(run.filter ? { filter: run.filter } : {}) });
        for (const run of runs) {
          const begin = performance.now();
          const hits = await index.search(run.query, { k: 10, ...(run.filter ? { filter: run.filter } : {}) });
          durations.push(performance.now() - begin);
          top.push(hits.map((hit) => hit.chunkId));
        }
        tops.set(backend, top);
        results.push({ backend, chunks: total, ingestMs: Math.round(ingestMs), chunksPerSecond: Math.round(total / (ingestMs / 1000)), search: summarize(durations) });
      }
      const [left, right] = [tops.get('sqlite')!, tops.get('postgres')!];
      const overlap = left.map((ids, n) => (ids.length === 0 ? 1 : ids.filter((id) => right[n]!.includes(id)).length / ids.length));
      return { results, top10Overlap: Math.round((overlap.reduce((sum, value) => sum + value, 0) / overlap.length) * 1000) / 1000 };
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function formatReport(parity: ParityResult[], scale: { results: ScaleResult[]; top10Overlap: number } | undefined): string {
  const lines: string[] = [];
  if (parity.length > 0) {
    lines.push('Recall parity with SQLite (k = 15; recall of gold pages; overlap of the top-15 chunks)', '');
    lines.push('| dataset | ranking | queries | sqlite r@5 | postgres r@5 | sqlite r@15 | postgres r@15 | top-15 overlap | same top 5 | within tolerance |', '|---|---|---|---|---|---|---|---|---|---|');
    for (const row of parity) {
      const judged = row.ranking === 'bm25' ? (withinTolerance(row) ? 'yes' : 'NO') : '(not judged)';
      lines.push(`| ${row.dataset} | ${row.ranking} | ${row.queries} | ${row.sqlite.recallAt5} | ${row.postgres.recallAt5} | ${row.sqlite.recallAt15} | ${row.postgres.recallAt15} | ${row.top15Overlap} | ${row.sameTop5} | ${judged} |`);
    }
    lines.push('');
  }
  if (scale) {
    lines.push(`Scale (top 10, half the queries filtered to 3.x; top-10 overlap postgres/sqlite ${scale.top10Overlap})`, '');
    lines.push('| backend | chunks | ingest s | chunks/s | search p50 ms | search p99 ms |', '|---|---|---|---|---|---|');
    for (const row of scale.results) {
      lines.push(`| ${row.backend} | ${row.chunks} | ${(row.ingestMs / 1000).toFixed(1)} | ${row.chunksPerSecond} | ${row.search.p50.toFixed(2)} | ${row.search.p99.toFixed(2)} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

await main();
