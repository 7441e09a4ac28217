/**
 * Recall parity of the PostgreSQL index with the SQLite index on one dataset folder (see
 * bench/postgres.ts, which runs it on the dev sets): the same docs ingested into both, every
 * retrieval query (with its version filter) and every QA question searched at k = 15 in both.
 * Both rank with the same engine, so the top 10 must be identical (ids, order, scores).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../src/corpus/index.ts';
import { createPostgresIndex, type PostgresRanking } from '../src/index/postgres/postgres.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import type { IndexBackend, SearchFilter } from '../src/index/types.ts';

/** What parity of one dataset is measured on, and its result. */
export interface ParityResult {
  dataset: string;
  ranking: PostgresRanking;
  queries: number;
  /** Recall@5 and recall@15 of the gold pages (queries with gold pages only), per backend. */
  sqlite: { recallAt5: number; recallAt15: number };
  postgres: { recallAt5: number; recallAt15: number };
  /** Mean share of SQLite's top-15 chunks that PostgreSQL's top 15 also holds (every query). */
  top15Overlap: number;
  /** Share of queries whose top 5 chunk ids are the same, in the same order. */
  sameTop5: number;
  /** Share of queries whose top 10 is identical: the same chunk ids in the same order, scores within 1e-9 (the target: 1). */
  sameTop10: number;
  /** Queries whose gold recall@15 differs between the backends. */
  recallDiffers: Array<{ query: string; sqlite: number; postgres: number }>;
}

interface ParityQuery {
  query: string;
  gold: string[];
  filter?: SearchFilter;
}

const K = 15;

/**
 * Ingests `dir/docs` into an in-memory SQLite index and into a PostgreSQL schema (`url` must name
 * a fresh schema), searches every query in both and compares.
 *
 * @example
 * await measureParity('orbit', 'datasets/orbit', 'postgres://atlas@127.0.0.1:5432/postgres?schema=parity_orbit', 'bm25');
 */
export async function measureParity(dataset: string, dir: string, url: string, ranking: PostgresRanking): Promise<ParityResult> {
  const { docs } = await loadCorpus(join(dir, 'docs'));
  const queries = readParityQueries(dir);
  const sqlite = createSqliteIndex({ path: ':memory:' });
  const postgres = createPostgresIndex({ url, rebuild: true, ranking });
  try {
    await sqlite.ingest(docs);
    await postgres.ingest(docs);
    const rank = async (index: IndexBackend, query: ParityQuery) => index.search(query.query, { k: K, ...(query.filter ? { filter: query.filter } : {}) });
    const recall = (gold: string[], docIds: string[]) => (gold.length === 0 ? 0 : gold.filter((doc) => docIds.includes(doc)).length / gold.length);
    const sums = { s5: 0, s15: 0, p5: 0, p15: 0, overlap: 0, same: 0, same10: 0, gold: 0 };
    const recallDiffers: ParityResult['recallDiffers'] = [];
    for (const query of queries) {
      const [left, right] = [await rank(sqlite, query), await rank(postgres, query)];
      const leftIds = left.map((hit) => hit.chunkId);
      const rightIds = new Set(right.map((hit) => hit.chunkId));
      sums.overlap += leftIds.length === 0 ? (rightIds.size === 0 ? 1 : 0) : leftIds.filter((id) => rightIds.has(id)).length / leftIds.length;
      sums.same += leftIds.slice(0, 5).join('\n') === right.slice(0, 5).map((hit) => hit.chunkId).join('\n') ? 1 : 0;
      sums.same10 += sameTop(left.slice(0, 10), right.slice(0, 10)) ? 1 : 0;
      if (query.gold.length === 0) continue;
      sums.gold += 1;
      const leftDocs = left.map((hit) => hit.docId);
      const rightDocs = right.map((hit) => hit.docId);
      sums.s5 += recall(query.gold, leftDocs.slice(0, 5));
      sums.p5 += recall(query.gold, rightDocs.slice(0, 5));
      const [s15, p15] = [recall(query.gold, leftDocs), recall(query.gold, rightDocs)];
      sums.s15 += s15;
      sums.p15 += p15;
      if (s15 !== p15) recallDiffers.push({ query: query.query, sqlite: s15, postgres: p15 });
    }
    const mean = (sum: number, n: number) => (n === 0 ? 0 : round(sum / n));
    return {
      dataset,
      ranking,
      queries: queries.length,
      sqlite: { recallAt5: mean(sums.s5, sums.gold), recallAt15: mean(sums.s15, sums.gold) },
      postgres: { recallAt5: mean(sums.p5, sums.gold), recallAt15: mean(sums.p15, sums.gold) },
      top15Overlap: mean(sums.overlap, queries.length),
      sameTop5: mean(sums.same, queries.length),
      sameTop10: mean(sums.same10, queries.length),
      recallDiffers,
    };
  } finally {
    await sqlite.close();
    await postgres.close();
  }
}

/**
 * Whether two rankings are identical: the same chunk ids in the same order, scores within 1e-9.
 *
 * @example
 * sameTop([{ chunkId: 'a#0', score: 2 }], [{ chunkId: 'a#0', score: 2 }]); // true
 */
export function sameTop(left: ReadonlyArray<{ chunkId: string; score: number }>, right: ReadonlyArray<{ chunkId: string; score: number }>): boolean {
  return left.length === right.length && left.every((hit, n) => hit.chunkId === right[n]!.chunkId && Math.abs(hit.score - right[n]!.score) <= 1e-9);
}

/** Retrieval queries (gold pages, version filter) and QA questions (gold = cited docs) of a dataset. */
function readParityQueries(dir: string): ParityQuery[] {
  const lines = (file: string) =>
    existsSync(join(dir, 'eval', file))
      ? readFileSync(join(dir, 'eval', file), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  const retrieval = lines('retrieval_queries.jsonl').map((record) => ({
    query: String(record.query),
    gold: strings(record.relevant_doc_ids),
    ...(typeof record.version === 'string' ? { filter: { version: record.version } } : {}),
  }));
  const qa = lines('qa_gold.jsonl').map((record) => ({ query: String(record.question), gold: strings(record.citations) }));
  return [...retrieval, ...qa];
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
