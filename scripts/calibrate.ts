/**
 * Calibration of the two thresholds that separate answerable from unanswerable questions
 * (docs/calibration.md):
 *  - the weak-match score of search_docs (best BM25 score of a search), and
 *  - the offline planner's abstention (does it abstain on unanswerable, answer the rest).
 *
 * Usage: npx tsx scripts/calibrate.ts datasets/orbit [--json]
 */
import path from 'node:path';
import { createOfflineModel } from '../src/agent/offline/index.ts';
import { agenticRun } from '../src/agent/run.ts';
import { loadDataset } from '../src/eval/dataset.ts';
import { createSqliteIndex } from '../src/index/sqlite.ts';

interface Row {
  answerable: boolean;
  bestScore: number;
  abstained: boolean;
}

/** Best threshold on the first search's best score: flags most unanswerable queries, few answerable. */
export function chooseWeakThreshold(rows: Row[]): { threshold: number; flaggedUnanswerable: number; flaggedAnswerable: number } {
  const candidates = [...new Set(rows.map((row) => Math.round(row.bestScore * 10) / 10))].sort((a, b) => a - b);
  const answerable = rows.filter((row) => row.answerable);
  const unanswerable = rows.filter((row) => !row.answerable);
  let best = { threshold: 0, flaggedUnanswerable: 0, flaggedAnswerable: 0, balanced: -1 };
  for (const threshold of candidates) {
    const flaggedUnanswerable = unanswerable.filter((row) => row.bestScore < threshold).length / Math.max(1, unanswerable.length);
    const flaggedAnswerable = answerable.filter((row) => row.bestScore < threshold).length / Math.max(1, answerable.length);
    // Flagging an answerable search only adds a note; still, keep it rare (<= 10%).
    const balanced = flaggedAnswerable <= 0.1 ? flaggedUnanswerable - flaggedAnswerable : -1;
    if (balanced > best.balanced) best = { threshold, flaggedUnanswerable, flaggedAnswerable, balanced };
  }
  return { threshold: best.threshold, flaggedUnanswerable: best.flaggedUnanswerable, flaggedAnswerable: best.flaggedAnswerable };
}

async function main(argv: string[]): Promise<void> {
  const dir = argv.find((arg) => !arg.startsWith('--'));
  if (!dir) throw new Error('usage: npx tsx scripts/calibrate.ts <dataset-dir> [--json]');
  const dataset = await loadDataset(path.resolve(dir));
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest(dataset.docs);
  const model = createOfflineModel();
  const rows: Row[] = [];
  for (const query of dataset.retrievalQueries ?? []) {
    const filter = query.version ? { version: query.version } : undefined;
    const hits = await index.search(query.query, { k: 5, ...(filter ? { filter } : {}) });
    const run = await agenticRun(query.query, { model, index, ...(filter ? { filter } : {}) });
    rows.push({ answerable: query.relevantDocIds.length > 0, bestScore: hits[0]?.score ?? 0, abstained: run.answer.abstained });
  }
  const weak = chooseWeakThreshold(rows);
  const answerable = rows.filter((row) => row.answerable);
  const unanswerable = rows.filter((row) => !row.answerable);
  const result = {
    dataset: path.basename(path.resolve(dir)),
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    weakScore: weak,
    offlineAbstention: {
      unanswerableAbstained: unanswerable.filter((row) => row.abstained).length / Math.max(1, unanswerable.length),
      answerableAbstained: answerable.filter((row) => row.abstained).length / Math.max(1, answerable.length),
    },
  };
  console.log(argv.includes('--json') ? JSON.stringify(result) : JSON.stringify(result, null, 2));
  await index.close();
}

if (process.argv[1]?.endsWith('calibrate.ts')) await main(process.argv.slice(2));
