import { abstention } from '../agent/answer.ts';
import type { AgentRun } from '../agent/run-state.ts';
import type { SearchFilter } from '../index/types.ts';
import type { FailureBucket } from './buckets.ts';
import type { Dataset } from './dataset.ts';
import { citedDocIds, docRecall, evidenceDocIds, searchCount } from './metrics.ts';

/** One question of the compare eval, from retrieval_queries.jsonl or qa_gold.jsonl. */
export interface EvalCase {
  /** The query id, or `qa:<id>` for qa_gold cases (the two files may share ids). */
  id: string;
  /** The query kind, or `qa` for qa_gold cases. */
  kind: string;
  question: string;
  /** Gold doc ids; empty when the right outcome is to abstain. */
  gold: string[];
  version: string | null;
}

/**
 * The compare cases of a dataset: every retrieval query (unanswerable ones included) and every
 * qa_gold question, in file order. A qa_gold question that repeats a retrieval query (same text
 * and version) runs once, as its retrieval case.
 *
 * @example
 * const cases = compareCases(await loadDataset('datasets/orbit'));
 */
export function compareCases(dataset: Pick<Dataset, 'retrievalQueries' | 'qaGold'>): EvalCase[] {
  const retrieval = (dataset.retrievalQueries ?? []).map((query) => ({
    id: query.id,
    kind: query.kind,
    question: query.query,
    gold: query.relevantDocIds,
    version: query.version,
  }));
  const asked = new Set(retrieval.map((item) => JSON.stringify([item.question, item.version])));
  const qa = (dataset.qaGold ?? [])
    .filter((item) => !asked.has(JSON.stringify([item.question, item.version])))
    .map((item) => ({ id: `qa:${item.id}`, kind: 'qa', question: item.question, gold: item.citations, version: item.version }));
  return [...retrieval, ...qa];
}

/** The version filter of a case, if any. */
export function caseFilter(item: { version: string | null }): SearchFilter | undefined {
  return item.version === null ? undefined : { version: item.version };
}

/** One arm's outcome on one case: the metrics of the compare table and the full run. */
export interface CaseResult {
  caseId: string;
  kind: string;
  arm: string;
  question: string;
  gold: string[];
  version: string | null;
  /** Evidence recall (gold pages among the pages seen or read); null when there is no gold. */
  recall: number | null;
  /** Every gold page was seen; null when there is no gold. */
  allFound: boolean | null;
  /** Cites at least one gold page, or abstains when there is no gold. */
  pass: boolean;
  abstained: boolean;
  searches: number;
  /** Distinct chunks seen or read. */
  chunks: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** null when the model's price is unknown. */
  costUsd: number | null;
  latencyMs: number;
  seenDocIds: string[];
  citedDocIds: string[];
  /** Set on failed agentic cases. */
  bucket?: FailureBucket;
  run: AgentRun;
}

/**
 * Scores one run of one arm on one case.
 *
 * @example
 * const result = scoreRun(item, 'agentic', await agenticRun(item.question, options));
 * result.pass; // true when a gold page is cited (or the run abstained where there is no gold)
 */
export function scoreRun(item: EvalCase, arm: string, run: AgentRun): CaseResult {
  const seenDocIds = evidenceDocIds(run);
  const cited = citedDocIds(run);
  const recall = docRecall(item.gold, seenDocIds) ?? null;
  const abstained = run.answer.abstained;
  const pass = item.gold.length === 0 ? abstained : !abstained && cited.some((docId) => item.gold.includes(docId));
  return {
    caseId: item.id,
    kind: item.kind,
    arm,
    question: item.question,
    gold: item.gold,
    version: item.version,
    recall,
    allFound: recall === null ? null : recall === 1,
    pass,
    abstained,
    searches: searchCount(run),
    chunks: run.trace.evidence.length,
    modelCalls: run.usage.modelCalls,
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    costUsd: run.usage.costUsd,
    latencyMs: run.latencyMs,
    seenDocIds,
    citedDocIds: cited,
    run,
  };
}

/** True when a run ended on a provider failure (after the client's own retries). */
export function runFailed(run: AgentRun): boolean {
  return run.trace.stopReason === 'error';
}

/**
 * The run recorded for a case whose run threw even after the retry: it abstains, and its trace
 * carries the error.
 *
 * @example
 * const run = await task().catch((error) => thrownRun(question, error));
 */
export function thrownRun(question: string, error: unknown): AgentRun {
  return {
    question,
    answer: abstention(),
    trace: {
      steps: [],
      reads: [],
      evidence: [],
      rankedDocIds: [],
      toolChoices: [],
      calls: [],
      stopReason: 'error',
      droppedCitations: [],
      abstainReason: 'the run failed',
      errors: [`run failed: ${error instanceof Error ? error.message : String(error)}`],
    },
    usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null },
    latencyMs: 0,
  };
}
