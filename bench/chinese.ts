/**
 * Chinese ingest and search (issue 41), a part of `npm run bench` (bench/run.ts runs it in a
 * child): the 848 passages of CMRC 2018 dev (`ATLAS_SHARED_DIR/datasets/cmrc2018-dev`, else
 * `../shared/datasets/cmrc2018-dev`) parsed and ingested into an SQLite index file, then each of
 * its 3,219 questions searched `rounds` times (top 5) after a warm-up pass: ingest time, search
 * p50/p99, and recall@1 and @5 of the question's passage (the tokens of text without spaces at
 * work: a clause of Chinese as one token finds nothing). Alone: `npx tsx bench/chinese.ts [--json]`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { summarize, type Timings } from './measure.ts';

/** What {@link measureChinese} reports. */
export interface ChineseResult {
  passages: number;
  chunks: number;
  questions: number;
  /** Parse (loadCorpus) and ingest, wall ms. */
  parseMs: number;
  ingestMs: number;
  search: Timings;
  recallAt1: number;
  recallAt5: number;
}

interface Question {
  query: string;
  relevant_doc_ids: string[];
}

/** The CMRC 2018 dev folder, or a message naming where it was looked for. */
export function cmrcFolder(env: Record<string, string | undefined>): string {
  const root = env.ATLAS_SHARED_DIR ?? fileURLToPath(new URL('../../shared', import.meta.url));
  const folder = join(root, 'datasets', 'cmrc2018-dev');
  if (!existsSync(join(folder, 'docs'))) throw new Error(`bench: the CMRC 2018 dev set is not at ${folder}; set ATLAS_SHARED_DIR to the shared folder.`);
  return folder;
}

/**
 * Ingests the passages of `folder` into a new index file and searches its questions.
 *
 * @example
 * const result = await measureChinese(cmrcFolder(process.env), 2); // { recallAt5: 0.997, ... }
 */
export async function measureChinese(folder: string, rounds: number): Promise<ChineseResult> {
  const questions = readFileSync(join(folder, 'eval', 'retrieval_queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Question);
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-bench-chinese-'));
  try {
    let start = performance.now();
    const { docs } = await loadCorpus(join(folder, 'docs'));
    const parseMs = performance.now() - start;
    const index = createSqliteIndex({ path: join(scratch, 'index.db') });
    start = performance.now();
    await index.ingest(docs);
    const ingestMs = performance.now() - start;
    let found1 = 0;
    let found5 = 0;
    for (const question of questions) {
      const hits = await index.search(question.query, { k: 5 });
      if (question.relevant_doc_ids.includes(hits[0]?.docId ?? '')) found1 += 1;
      if (hits.some((hit) => question.relevant_doc_ids.includes(hit.docId))) found5 += 1;
    }
    const durations: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      for (const question of questions) {
        const begin = performance.now();
        await index.search(question.query, { k: 5 });
        durations.push(performance.now() - begin);
      }
    }
    const { chunks } = await index.stats();
    await index.close();
    const share = (count: number) => Math.round((count / questions.length) * 1000) / 1000;
    return { passages: docs.length, chunks, questions: questions.length, parseMs: Math.round(parseMs), ingestMs: Math.round(ingestMs), search: summarize(durations), recallAt1: share(found1), recallAt5: share(found5) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The result as a table for the bench report. */
export function formatChinese(result: ChineseResult): string {
  const ms = (value: number) => value.toFixed(2);
  return [
    `Chinese (CMRC 2018 dev: ${result.passages} passages, ${result.chunks} chunks, ${result.questions} questions, top 5)`,
    `  parse ${result.parseMs} ms, ingest ${result.ingestMs} ms; search p50 ${ms(result.search.p50)} ms, p99 ${ms(result.search.p99)} ms, mean ${ms(result.search.mean)} ms; recall@1 ${result.recallAt1}, recall@5 ${result.recallAt5}`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, rounds: { type: 'string', default: '2' } } });
  const result = await measureChinese(cmrcFolder(process.env), Number(values.rounds));
  process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${formatChinese(result)}\n`);
}
