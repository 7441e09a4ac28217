/**
 * `npx tsx bench/vectors.ts [--json] [--chunks 100000] [--queries 200] [--dimensions 256] [--shared DIR] [--skip-quality] [--skip-speed]`
 *
 * Vectors and hybrid search of the SQLite index (docs/vectors.md), with the deterministic hash
 * embedder (`hash:<dimensions>`, no model, no network), so it measures Atlas's side only:
 *
 * 1. Ranking on the dev sets (datasets/orbit, and graphile-worker-dev and musique-dev from the
 *    shared folder): recall@5/@15 and MRR@10 of gold pages for bm25, vector and hybrid with a few
 *    fusion weights. The hash embedder knows no meaning: these rows check the plumbing (fusion
 *    keeps what BM25 finds when the vector ranking adds noise) and say nothing of a real model.
 * 2. Speed at `--chunks` sections built from the real MuSiQue passages: the text ingest, the
 *    embedding sync (chunks/s through the vector tables; a provider's latency comes on top), and
 *    search p50/p99 per mode over the real questions (half filtered to version 3.x).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createHashEmbedder } from '../src/embed/hash-embedder.ts';
import { queryIdentifiers } from '../src/index/analysis/identifiers.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createTestDoc } from '../src/index/test-docs.ts';
import type { SearchMode } from '../src/index/types.ts';
import type { FusionWeights } from '../src/index/vectors/vector-fusion.ts';
import { withRetrieval } from '../src/index/vectors/vector-retrieval.ts';
import { summarize, timeEach, type Timings } from './measure.ts';
import { musiqueFolder, readPassages, readQuestions } from './musique-corpus.ts';
import { createRandom } from './prng.ts';
import { rankDataset, rankingMetrics, type RankingMetrics } from './ranking.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The rankings compared on the dev sets. */
const VARIANTS: Array<{ name: string; mode: SearchMode; fusion?: Partial<FusionWeights> }> = [
  { name: 'bm25', mode: 'bm25' },
  { name: 'vector', mode: 'vector' },
  { name: 'hybrid 1:1', mode: 'hybrid' },
  { name: 'hybrid 1:0.5', mode: 'hybrid', fusion: { vector: 0.5 } },
  { name: 'hybrid 0.5:1', mode: 'hybrid', fusion: { bm25: 0.5 } },
];

interface QualityRow {
  dataset: string;
  variant: string;
  metrics: RankingMetrics;
  /** The queries that name an identifier (src/index/analysis/identifiers.ts). */
  identifierMetrics: RankingMetrics;
}

interface SpeedResult {
  chunks: number;
  ingestMs: number;
  embedMs: number;
  embedChunksPerSecond: number;
  search: Record<SearchMode, Timings>;
}

async function quality(shared: string, dimensions: number): Promise<QualityRow[]> {
  const datasets: Array<[string, string]> = [
    ['orbit', join(repoRoot, 'datasets/orbit')],
    ['graphile-worker-dev', join(shared, 'datasets/graphile-worker-dev')],
    ['musique-dev', join(shared, 'datasets/musique-dev')],
  ];
  const rows: QualityRow[] = [];
  for (const [name, dir] of datasets) {
    process.stderr.write(`${name}: ranking ${VARIANTS.length} variants\n`);
    for (const variant of VARIANTS) {
      const ranked = await rankDataset(name, dir, {}, (base) =>
        withRetrieval(base, { embedder: createHashEmbedder({ dimensions }), mode: variant.mode, ...(variant.fusion ? { fusion: variant.fusion } : {}) }),
      ).catch((error: Error) => {
        process.stderr.write(`${name}: skipped (${error.message})\n`);
        return undefined;
      });
      if (ranked === undefined) break;
      rows.push({
        dataset: name,
        variant: variant.name,
        metrics: rankingMetrics(ranked),
        identifierMetrics: rankingMetrics(ranked.filter((query) => queryIdentifiers(query.query).length > 0)),
      });
    }
  }
  return rows;
}

async function speed(chunks: number, queryCount: number, dimensions: number): Promise<SpeedResult> {
  const folder = musiqueFolder(process.env);
  const passages = readPassages(folder);
  const questions = readQuestions(folder);
  const random = createRandom(42);
  const docs = [];
  for (let made = 0, page = 0; made < chunks; page += 1) {
    const sections = Math.min(random.int(4, 8), chunks - made);
    docs.push(
      createTestDoc({
        docId: `p${page}`,
        appliesTo: random.pick(['2.x', '3.x', 'all', 'all']),
        sections: Array.from({ length: sections }, (_, n) => {
          const passage = passages[(made + n) % passages.length]!;
          return { heading: `${passage.title} (${page})`, text: passage.text };
        }),
      }),
    );
    made += sections;
  }
  const dir = mkdtempSync(join(tmpdir(), 'atlas-bench-vectors-'));
  try {
    const base = createSqliteIndex({ path: join(dir, 'index.db') });
    const embedder = createHashEmbedder({ dimensions });
    let start = performance.now();
    await base.ingest(docs);
    const ingestMs = performance.now() - start;
    process.stderr.write(`speed: ${chunks} chunks ingested in ${Math.round(ingestMs)} ms; embedding\n`);
    start = performance.now();
    await base.syncVectors(embedder);
    const embedMs = performance.now() - start;
    const queries = Array.from({ length: queryCount }, (_, n) => ({ query: questions[n % questions.length]!, filtered: n % 2 === 1 }));
    const search = {} as Record<SearchMode, Timings>;
    for (const mode of ['bm25', 'vector', 'hybrid'] as const) {
      const index = withRetrieval(base, { embedder, mode });
      const durations = await timeEach(
        queries,
        ({ query, filtered }) => index.search(query, { k: 10, ...(filtered ? { filter: { version: '3.x' } } : {}) }),
        () => performance.now(),
        10,
      );
      search[mode] = summarize(durations);
      process.stderr.write(`speed: ${mode} p50 ${search[mode].p50.toFixed(2)} ms\n`);
    }
    await base.close();
    return { chunks, ingestMs, embedMs, embedChunksPerSecond: chunks / (embedMs / 1000), search };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function format(rows: QualityRow[], result: SpeedResult | undefined, dimensions: number): string {
  const lines = [`Ranking on the dev sets, hash:${dimensions} embedder (plumbing check, not a real model): k = 15`, ''];
  lines.push(`${'dataset'.padEnd(20)} ${'ranking'.padEnd(13)} ${'n'.padStart(4)}  R@5    R@15   MRR@10 | identifier queries: ${'n'.padStart(3)}  R@5    MRR@10`);
  for (const row of rows) {
    const m = row.metrics;
    const i = row.identifierMetrics;
    lines.push(
      `${row.dataset.padEnd(20)} ${row.variant.padEnd(13)} ${String(m.n).padStart(4)}  ${m.recallAt5.toFixed(3)}  ${m.recallAt15.toFixed(3)}  ${m.mrrAt10.toFixed(3)}  |                     ${String(i.n).padStart(3)}  ${i.recallAt5.toFixed(3)}  ${i.mrrAt10.toFixed(3)}`,
    );
  }
  if (result) {
    lines.push('', `Speed at ${result.chunks} chunks (MuSiQue passages, SQLite file, hash:${dimensions}):`);
    lines.push(`  text ingest ${Math.round(result.ingestMs)} ms; embedding sync ${Math.round(result.embedMs)} ms = ${Math.round(result.embedChunksPerSecond)} chunks/s (embedder time included)`);
    for (const [mode, timings] of Object.entries(result.search)) lines.push(`  search ${mode.padEnd(6)} p50 ${timings.p50.toFixed(2)} ms  p99 ${timings.p99.toFixed(2)} ms`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      chunks: { type: 'string', default: '100000' },
      queries: { type: 'string', default: '200' },
      dimensions: { type: 'string', default: '256' },
      shared: { type: 'string' },
      'skip-speed': { type: 'boolean', default: false },
      'skip-quality': { type: 'boolean', default: false },
    },
  });
  const dimensions = Number(values.dimensions);
  const shared = values.shared ?? process.env.ATLAS_SHARED_DIR ?? join(repoRoot, '../shared');
  const rows = values['skip-quality'] ? [] : await quality(shared, dimensions);
  const result = values['skip-speed'] ? undefined : await speed(Number(values.chunks), Number(values.queries), dimensions);
  process.stdout.write(values.json ? `${JSON.stringify({ dimensions, quality: rows, speed: result })}\n` : format(rows, result, dimensions));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
