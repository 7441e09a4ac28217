/**
 * Calibration of the two thresholds that separate answerable from unanswerable questions
 * (docs/calibration.md), across several dev sets at once (never on one corpus):
 *  - the weak-match score of search_docs (best BM25 score of a search), and
 *  - the offline planner's abstention rule (share of the question's names absent from the
 *    evidence, weighted share of its terms present, share of its terms held by a TODO note of
 *    the evidence, share of the phrase a part asks about that one sentence names), chosen so that on EVERY dataset at most
 *    10% of answerable questions are abstained on, and as many unanswerable ones as possible.
 *
 * Usage: npx tsx scripts/calibrate.ts datasets/orbit ../shared/datasets/graphile-worker-dev ../shared/datasets/musique-dev [--json]
 */
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { readConversation } from '../src/models/offline/conversation.ts';
import { EvidenceView } from '../src/models/offline/evidence-view.ts';
import { coverage, DEFAULT_ABSTAIN_OPTIONS, type AbstainOptions } from '../src/models/offline/extract-answer.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';
import { versionInPlay } from '../src/models/offline/planner.ts';
import { analyzeQuestion } from '../src/text/question.ts';
import { agenticRun } from '../src/agent/run.ts';
import { loadDataset } from '../src/eval/dataset/dataset.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';

/** One retrieval query of a dev set: whether it is answerable and the measures the thresholds are chosen on. */
export interface Row {
  dataset: string;
  answerable: boolean;
  bestScore: number;
  /** Coverage of the evidence the final answer was written from; undefined when nothing was shown. */
  missingAnchorShare?: number;
  total?: number;
  placeholderMatch?: number;
  focusShare?: number;
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

/** The rules searched, loosest first within each threshold (so a tie keeps the loosest). */
function abstentionCandidates(): AbstainOptions[] {
  const coverages = Array.from({ length: 26 }, (_, step) => (40 + 2 * step) / 100);
  const anchorShares = [0.99, 0.67, 0.5, 0.4, 0.34, 0.2, 0];
  const placeholderMatches = [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
  const focusShares = [0, 0.5, 0.6, 0.7, 0.8, 1];
  return coverages.flatMap((minCoverage) =>
    anchorShares.flatMap((maxMissingAnchorShare) =>
      placeholderMatches.flatMap((maxPlaceholderMatch) => focusShares.map((minFocusShare) => ({ ...DEFAULT_ABSTAIN_OPTIONS, minCoverage, maxMissingAnchorShare, maxPlaceholderMatch, minFocusShare }))),
    ),
  );
}

/** Whether the abstention rule with these thresholds abstains on a row. */
function abstains(row: Row, options: AbstainOptions): boolean {
  if (row.total === undefined || row.missingAnchorShare === undefined) return true;
  return (
    row.missingAnchorShare > options.maxMissingAnchorShare ||
    row.total < options.minCoverage ||
    (row.placeholderMatch ?? 0) > options.maxPlaceholderMatch ||
    (row.focusShare ?? 1) < options.minFocusShare
  );
}

/** Per dataset: unanswerable abstained and answerable abstained (shares), under `options`. */
export function abstentionRates(rows: Row[], options: AbstainOptions) {
  const datasets = [...new Set(rows.map((row) => row.dataset))];
  return datasets.map((dataset) => {
    const own = rows.filter((row) => row.dataset === dataset);
    const answerable = own.filter((row) => row.answerable);
    const unanswerable = own.filter((row) => !row.answerable);
    return {
      dataset,
      unanswerableAbstained: `${unanswerable.filter((row) => abstains(row, options)).length} of ${unanswerable.length}`,
      answerableAbstained: Math.round((answerable.filter((row) => abstains(row, options)).length / Math.max(1, answerable.length)) * 1000) / 1000,
    };
  });
}

/**
 * The thresholds that abstain on at most 10% of the answerable questions of each dataset and,
 * among those, gain the most summed over the datasets: the share of its unanswerable questions
 * abstained on minus the share of its answerable questions abstained on (a rule that catches one
 * more unanswerable question by refusing several answerable ones loses). Ties go to the rule that
 * refuses the fewest answerable questions, then to the loosest.
 */
export function chooseAbstention(rows: Row[]): AbstainOptions {
  const datasets = [...new Set(rows.map((row) => row.dataset))];
  let best: { options: AbstainOptions; gain: number; wrong: number } = { options: DEFAULT_ABSTAIN_OPTIONS, gain: Number.NEGATIVE_INFINITY, wrong: 0 };
  for (const options of abstentionCandidates()) {
    const rates = abstentionRates(rows, options);
    if (rates.some((rate) => rate.answerableAbstained > 0.1)) continue;
    let gain = 0;
    for (const dataset of datasets) {
      const own = rows.filter((row) => row.dataset === dataset);
      const answerable = own.filter((row) => row.answerable);
      const unanswerable = own.filter((row) => !row.answerable);
      gain += unanswerable.length === 0 ? 0 : unanswerable.filter((row) => abstains(row, options)).length / unanswerable.length;
      gain -= answerable.length === 0 ? 0 : answerable.filter((row) => abstains(row, options)).length / answerable.length;
    }
    const wrong = rows.filter((row) => row.answerable && abstains(row, options)).length;
    if (gain > best.gain + 1e-9 || (Math.abs(gain - best.gain) <= 1e-9 && wrong < best.wrong)) best = { options, gain, wrong };
  }
  return best.options;
}

/** The offline model, with the prompt of its last call kept (the evidence its answer came from). */
function recordingOfflineModel(): { model: LanguageModelV3; lastCall: () => LanguageModelV3CallOptions | undefined } {
  const inner = createOfflineModel();
  let last: LanguageModelV3CallOptions | undefined;
  const model: LanguageModelV3 = {
    ...inner,
    doGenerate: (call) => {
      last = call;
      return inner.doGenerate(call);
    },
    doStream: (call) => {
      last = call;
      return inner.doStream(call);
    },
  };
  return { model, lastCall: () => last };
}

async function measure(dir: string): Promise<Row[]> {
  const dataset = await loadDataset(path.resolve(dir));
  const name = path.basename(path.resolve(dir));
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest(dataset.docs);
  const rows: Row[] = [];
  for (const query of dataset.retrievalQueries ?? []) {
    const filter = query.version ? { version: query.version } : undefined;
    const hits = await index.search(query.query, { k: 5, ...(filter ? { filter } : {}) });
    const { model, lastCall } = recordingOfflineModel();
    await agenticRun(query.query, { model, index, ...(filter ? { filter } : {}) });
    const row: Row = { dataset: name, answerable: query.relevantDocIds.length > 0, bestScore: hits[0]?.score ?? 0 };
    const call = lastCall();
    if (call) {
      const conversation = readConversation(call.prompt);
      const analysis = analyzeQuestion(conversation.question);
      const view = new EvidenceView(analysis, conversation, versionInPlay(analysis, conversation));
      if (view.sentences.length > 0) Object.assign(row, coverage(analysis, view));
    }
    rows.push(row);
  }
  await index.close();
  return rows;
}

async function main(argv: string[]): Promise<void> {
  const dirs = argv.filter((arg) => !arg.startsWith('--'));
  if (dirs.length === 0) throw new Error('usage: npx tsx scripts/calibrate.ts <dataset-dir>... [--json]');
  const rows = (await Promise.all(dirs.map(measure))).flat();
  const chosen = chooseAbstention(rows);
  const result = {
    datasets: dirs.map((dir) => path.basename(path.resolve(dir))),
    weakScore: chooseWeakThreshold(rows),
    abstention: {
      shipped: { options: DEFAULT_ABSTAIN_OPTIONS, rates: abstentionRates(rows, DEFAULT_ABSTAIN_OPTIONS) },
      chosen: { options: chosen, rates: abstentionRates(rows, chosen) },
    },
  };
  console.log(argv.includes('--json') ? JSON.stringify(result) : JSON.stringify(result, null, 2));
}

if (process.argv[1]?.endsWith('calibrate.ts')) await main(process.argv.slice(2));
