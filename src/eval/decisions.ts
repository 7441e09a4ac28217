import type { LanguageModel } from 'ai';
import { agenticRun } from '../agent/run.ts';
import type { ModelPrice } from '../agent/cost.ts';
import type { RunLimits } from '../agent/run-types.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { failedRuns, runFailed, thrownRun, type FailedRuns } from './cases.ts';
import type { DecisionCase } from './dataset/dataset.ts';
import { round3, searchCount } from './metrics.ts';
import { runPool, withRetry, type Sleep } from './pool.ts';

/** Options of {@link runDecisionEval}. */
export interface DecisionEvalOptions {
  /** Labels and access groups every run is held to. */
  filter?: SearchFilter;
  cases: DecisionCase[];
  index: IndexBackend;
  model: LanguageModel;
  price?: ModelPrice | null;
  /** Per-call timeout and deadline of every run (defaults of `RunLimits`). */
  limits?: RunLimits;
  /** Runs in flight at once (default 4). */
  concurrency?: number;
  now?: () => number;
  sleep?: Sleep;
  onCaseDone?: () => void;
}

/** One decision the run got wrong. */
export interface WrongDecision {
  id: string;
  question: string;
  expectSearch: boolean;
  searched: boolean;
  /** The run's answer (what it said instead of searching, or after searching). */
  answer: string;
  queries: string[];
}

/** The search-or-answer decision eval. "Positive" means "searched". */
export interface DecisionReport {
  n: number;
  /** Of the questions that need the docs, how many were searched. */
  searchedWhenItShould: { correct: number; of: number };
  /** Of the questions that do not, how many were answered without a search. */
  answeredDirectlyWhenItShould: { correct: number; of: number };
  /** tp: searched and should; fp: searched but should not; tn: answered directly and should; fn: answered directly but should have searched. */
  confusion: { tp: number; fp: number; tn: number; fn: number };
  accuracy: number;
  wrong: WrongDecision[];
  /** Runs the model failed (counted as not searched). */
  failedRuns: FailedRuns;
}

/**
 * Runs every decision case through `agenticRun` with `firstTurn: 'auto'` (the model may answer
 * without searching) and compares "the run made at least one search" with `expect_search`.
 *
 * @example
 * const report = await runDecisionEval({ cases: dataset.decisions, index, model });
 * report.confusion; // { tp: 18, fp: 1, tn: 11, fn: 0 }
 */
export async function runDecisionEval(options: DecisionEvalOptions): Promise<DecisionReport> {
  const outcomes = await runPool(options.cases, options.concurrency ?? 4, async (item) => {
    const run = await withRetry(
      () =>
        agenticRun(item.question, {
          model: options.model,
          index: options.index,
          price: options.price ?? null,
          firstTurn: 'auto',
          ...options.limits,
          ...(options.filter ? { filter: options.filter } : {}),
          ...(options.now ? { now: options.now } : {}),
        }),
      { failed: runFailed, ...(options.sleep ? { sleep: options.sleep } : {}) },
    ).catch((error: unknown) => thrownRun(item.question, error));
    options.onCaseDone?.();
    return { item, run, searched: searchCount(run) > 0 };
  });
  const count = (expectSearch: boolean, searched: boolean) =>
    outcomes.filter((outcome) => outcome.item.expectSearch === expectSearch && outcome.searched === searched).length;
  const confusion = { tp: count(true, true), fp: count(false, true), tn: count(false, false), fn: count(true, false) };
  return {
    n: outcomes.length,
    searchedWhenItShould: { correct: confusion.tp, of: confusion.tp + confusion.fn },
    answeredDirectlyWhenItShould: { correct: confusion.tn, of: confusion.tn + confusion.fp },
    confusion,
    accuracy: outcomes.length === 0 ? 0 : round3((confusion.tp + confusion.tn) / outcomes.length),
    wrong: outcomes
      .filter((outcome) => outcome.item.expectSearch !== outcome.searched)
      .map(({ item, run, searched }) => ({
        id: item.id,
        question: item.question,
        expectSearch: item.expectSearch,
        searched,
        answer: run.answer.text,
        queries: run.trace.steps.map((step) => step.query),
      })),
    failedRuns: failedRuns(outcomes.map((outcome) => ({ id: outcome.item.id, run: outcome.run }))),
  };
}
