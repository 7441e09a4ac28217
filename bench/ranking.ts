/**
 * `npx tsx bench/ranking.ts [--out ranks.json] [--before ranks.json] [--json] [--shared DIR]
 *   [--weights heading=3,headingPath=1]`
 *
 * Ranking quality of one-pass search (the classic arm) on the dev datasets: datasets/orbit and,
 * from the shared folder (`../shared` beside the checkout, or ATLAS_SHARED_DIR, or --shared),
 * graphile-worker-dev and musique-dev. Each dataset's docs are ingested into an in-memory SQLite
 * index with the default settings (or the column weights of --weights); every retrieval query
 * with gold pages is searched once (k = 15, with the query's version filter), and the ranked doc
 * ids give recall@5, recall@10, recall@15 and MRR@10 of the gold pages (reciprocal rank of the
 * first hit from a gold page), overall and for the queries that name an identifier.
 *
 * `--out` writes the per-query ranked doc ids; `--before` reads such a file and prints
 * before -> after. To rank an older checkout, copy this file and src/index/analysis/identifiers.ts (which
 * only classifies the queries) into it and run it there with `--out`. The queries are read from
 * the jsonl files directly, not through the eval layer's validator, and fields other than query,
 * kind, relevant_doc_ids and version are ignored.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/corpus/index.ts';
import { queryIdentifiers } from '../src/index/analysis/identifiers.ts';
import { createSqliteIndex, type SqliteIndex } from '../src/index/sqlite/sqlite.ts';

/** One searched query and the doc ids of its ranked hits. */
export interface RankedQuery {
  dataset: string;
  id: string;
  query: string;
  kind: string;
  gold: string[];
  ranked: string[];
}

/** The three numbers of one group of queries. */
export interface RankingMetrics {
  n: number;
  recallAt5: number;
  recallAt10: number;
  recallAt15: number;
  mrrAt10: number;
}

const K = 15;
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Searches every answerable retrieval query of a dataset folder and records the ranked doc ids.
 *
 * @example
 * const ranked = await rankDataset('orbit', 'datasets/orbit'); // [{ id: 'et-01', ranked: ['error-codes', ...] }, ...]
 */
export async function rankDataset(
  dataset: string,
  dir: string,
  weights: Record<string, number> = {},
  wrap: (index: SqliteIndex) => SqliteIndex = (index) => index,
): Promise<RankedQuery[]> {
  const { docs, problems } = await loadCorpus(join(dir, 'docs'));
  for (const problem of problems) process.stderr.write(`${dataset}: skipped ${problem.file}: ${problem.field}: ${problem.message}\n`);
  // `wrap` lets bench/vectors.ts rank the same way with vectors (withRetrieval).
  const index = wrap(createSqliteIndex({ path: ':memory:', weights }));
  try {
    await index.ingest(docs);
    const ranked: RankedQuery[] = [];
    for (const query of readQueries(join(dir, 'eval/retrieval_queries.jsonl'))) {
      if (query.gold.length === 0) continue;
      const filter = query.version === null ? undefined : { version: query.version };
      const hits = await index.search(query.query, { k: K, ...(filter ? { filter } : {}) });
      ranked.push({ dataset, id: query.id, query: query.query, kind: query.kind, gold: query.gold, ranked: hits.map((hit) => hit.docId) });
    }
    return ranked;
  } finally {
    await index.close();
  }
}

function readQueries(file: string): Array<{ id: string; query: string; kind: string; gold: string[]; version: string | null }> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      const { id, query, kind, relevant_doc_ids: gold, version } = record;
      if (typeof query !== 'string' || !Array.isArray(gold) || gold.some((doc) => typeof doc !== 'string')) {
        throw new Error(`${file}:${number}: expected "query" (string) and "relevant_doc_ids" (array of doc ids); fix the line or drop it.`);
      }
      return {
        id: typeof id === 'string' ? id : `line-${number}`,
        query,
        kind: typeof kind === 'string' ? kind : 'unknown',
        gold: gold as string[],
        version: typeof version === 'string' ? version : null,
      };
    });
}

/**
 * recall@5, recall@10, recall@15 and MRR@10 of gold pages over ranked queries (zeros for an empty list).
 *
 * @example
 * rankingMetrics([{ gold: ['a'], ranked: ['b', 'a'] }]) // { n: 1, recallAt5: 1, recallAt10: 1, recallAt15: 1, mrrAt10: 0.5 }
 */
export function rankingMetrics(queries: ReadonlyArray<Pick<RankedQuery, 'gold' | 'ranked'>>): RankingMetrics {
  const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
  const recall = (query: Pick<RankedQuery, 'gold' | 'ranked'>, k: number) => {
    const found = new Set(query.ranked.slice(0, k));
    return query.gold.filter((doc) => found.has(doc)).length / query.gold.length;
  };
  const reciprocalRank = (query: Pick<RankedQuery, 'gold' | 'ranked'>) => {
    const rank = query.ranked.slice(0, 10).findIndex((doc) => query.gold.includes(doc));
    return rank === -1 ? 0 : 1 / (rank + 1);
  };
  return {
    n: queries.length,
    recallAt5: mean(queries.map((query) => recall(query, 5))),
    recallAt10: mean(queries.map((query) => recall(query, 10))),
    recallAt15: mean(queries.map((query) => recall(query, 15))),
    mrrAt10: mean(queries.map(reciprocalRank)),
  };
}

function sharedDir(explicit: string | undefined): string {
  return explicit ?? process.env.ATLAS_SHARED_DIR ?? join(repoRoot, '../shared');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      before: { type: 'string' },
      json: { type: 'boolean', default: false },
      shared: { type: 'string' },
      weights: { type: 'string', default: '' },
    },
  });
  const weights = parseWeights(values.weights);
  const shared = sharedDir(values.shared);
  const datasets: Array<[string, string]> = [
    ['orbit', join(repoRoot, 'datasets/orbit')],
    ['graphile-worker-dev', join(shared, 'datasets/graphile-worker-dev')],
    ['musique-dev', join(shared, 'datasets/musique-dev')],
  ];
  const ranked: RankedQuery[] = [];
  for (const [name, dir] of datasets) {
    if (!existsSync(join(dir, 'eval/retrieval_queries.jsonl'))) {
      process.stderr.write(`${name}: no eval/retrieval_queries.jsonl under ${dir}; skipped (pass --shared DIR or set ATLAS_SHARED_DIR)\n`);
      continue;
    }
    process.stderr.write(`${name}: ranking\n`);
    ranked.push(...(await rankDataset(name, dir, weights)));
  }
  if (values.out) writeFileSync(values.out, `${JSON.stringify(ranked)}\n`);
  const before = values.before ? (JSON.parse(readFileSync(values.before, 'utf8')) as RankedQuery[]) : undefined;
  const rows = reportRows(ranked, before, (query) => queryIdentifiers(query).length > 0);
  if (values.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
  else process.stdout.write(`${formatRows(rows, before !== undefined)}\n`);
}

/** `title=2,heading=3` -> { title: 2, heading: 3 }; the index checks the column names and values. */
function parseWeights(text: string): Record<string, number> {
  const weights: Record<string, number> = {};
  for (const pair of text.split(',').filter((part) => part.trim() !== '')) {
    const [column, value] = pair.split('=');
    if (column === undefined || value === undefined || value.trim() === '') {
      throw new Error(`--weights: expected column=number pairs separated by commas (e.g. heading=3,headingPath=1), got "${pair}".`);
    }
    weights[column.trim()] = Number(value);
  }
  return weights;
}

interface ReportRow {
  dataset: string;
  queries: 'all' | 'identifier';
  before?: RankingMetrics;
  after: RankingMetrics;
}

function reportRows(ranked: RankedQuery[], before: RankedQuery[] | undefined, namesIdentifier: (query: string) => boolean): ReportRow[] {
  const rows: ReportRow[] = [];
  const key = (query: RankedQuery) => `${query.dataset}\u0000${query.id}`;
  const beforeByKey = new Map((before ?? []).map((query) => [key(query), query]));
  const groups = [...new Set(ranked.map((query) => query.dataset)), 'overall'];
  for (const dataset of groups) {
    for (const queries of ['all', 'identifier'] as const) {
      const group = ranked.filter(
        (query) => (dataset === 'overall' || query.dataset === dataset) && (queries === 'all' || namesIdentifier(query.query)),
      );
      if (group.length === 0) continue;
      const row: ReportRow = { dataset, queries, after: rankingMetrics(group) };
      if (before) {
        const previous = group.map((query) => beforeByKey.get(key(query)));
        if (previous.some((query) => query === undefined)) throw new Error(`--before lacks some queries of ${dataset}; rank the same datasets before and after.`);
        row.before = rankingMetrics(previous as RankedQuery[]);
      }
      rows.push(row);
    }
  }
  return rows;
}

function formatRows(rows: ReportRow[], compared: boolean): string {
  const cell = (before: number | undefined, after: number) =>
    before === undefined ? after.toFixed(3) : `${before.toFixed(3)} -> ${after.toFixed(3)}`;
  const header = ['dataset', 'queries', 'n', 'recall@5', 'recall@10', 'recall@15', 'MRR@10'];
  const lines = [header, ...rows.map((row) => [
    row.dataset, row.queries, String(row.after.n),
    cell(row.before?.recallAt5, row.after.recallAt5),
    cell(row.before?.recallAt10, row.after.recallAt10),
    cell(row.before?.recallAt15, row.after.recallAt15),
    cell(row.before?.mrrAt10, row.after.mrrAt10),
  ])];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const title = compared ? 'Classic ranking of gold pages, before -> after' : 'Classic ranking of gold pages';
  return [title, ...lines.map((line) => line.map((text, column) => (column < 2 ? text.padEnd(widths[column]!) : text.padStart(widths[column]!))).join('  '))].join('\n');
}

// Imported by bench/vectors.ts: run only as a script.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
