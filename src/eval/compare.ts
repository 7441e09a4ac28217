import type { LanguageModel } from 'ai';
import { classicAsk } from '../agent/classic.ts';
import { routedAsk } from '../agent/policy/route.ts';
import { agenticRun } from '../agent/run.ts';
import type { ModelPrice } from '../agent/cost.ts';
import type { ModelLabel } from '../agent/policy/model-labels.ts';
import type { Policy } from '../agent/policy/policy.ts';
import type { AgentRun, RunLimits } from '../agent/run-types.ts';
import type { Doc } from '../corpus/types.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { classifyFailure, distinctiveTerms, type FailureBucket } from './buckets.ts';
import { caseFilter, runFailed, scoreRun, thrownRun, type CaseResult, type EvalCase } from './cases.ts';
import { answerRows, budgetRow, bucketCounts, compareRows, repeatSpread, type AnswerRow, type BudgetRow, type CompareRow, type RepeatSpread } from './compare-rows.ts';
import { mean, searchCount } from './metrics.ts';
import { runPool, withRetry, type Sleep } from './pool.ts';

/** Options of {@link runCompare}. */
export interface CompareOptions {
  cases: EvalCase[];
  /** Labels and access groups every run is held to (the case's release line is added). */
  filter?: SearchFilter;
  /** A policy file every run applies (see agent/policy/policy.ts), strict or not. */
  policy?: Policy;
  policyStrict?: boolean;
  /** Every run removes its unsupported claims and abstains when none is left (agent/trust/claims.ts). */
  strictClaims?: boolean;
  /** Labels the model may set as search_docs arguments (atlas.config.yaml `model_labels`). */
  modelLabels?: ModelLabel[];
  /** The dataset's documents (their titles and headings judge the planning bucket). */
  docs: Doc[];
  index: IndexBackend;
  model: LanguageModel;
  /** Names the closest passages when `model` abstains without them (`AskOptions.closestModel`). */
  closestModel?: LanguageModel;
  price?: ModelPrice | null;
  /** Per-call timeout and deadline of every run (defaults of `RunLimits`). */
  limits?: RunLimits;
  /** Search budget of the agentic arm (default 6). */
  maxSearches?: number;
  /** Extra agentic passes at these search budgets (the budget sweep). */
  budgets?: number[];
  /** Agentic passes at the main budget, for the spread (default 1). */
  repeat?: number;
  /** Cases in flight at once (default 4). */
  concurrency?: number;
  now?: () => number;
  /** Backoff before a failed case is retried once; injected so tests never sleep. */
  sleep?: Sleep;
  retryBackoffMs?: number;
  /** Told the number of runs planned: an estimate first, the exact count once the fair k is known. */
  onPlan?: (runs: number) => void;
  /** Told after each finished run. */
  onRunDone?: () => void;
  onRetry?: (caseId: string, reason: string) => void;
}

/** Everything the compare eval measured. */
export interface CompareResult {
  /** Arms in table order: `classic@5`, `classic@<fairK>` (unless it is 5), `agentic`, `auto`. */
  arms: string[];
  /** k of the fair classic arm: the agentic arm's mean chunks seen, rounded (at least 1). */
  fairK: number;
  rows: CompareRow[];
  /** Per arm: answered, correct, wrong, precision, closest passages that hold the answer, unanswerable abstained, answer words. */
  answers: AnswerRow[];
  /** Failed agentic cases per bucket. */
  buckets: Record<FailureBucket, number>;
  failures: Array<{ caseId: string; kind: string; bucket: FailureBucket }>;
  /** Agentic cases that pass (cite a gold page) yet are not correct: facts missing, no bucket. */
  incomplete: Array<{ caseId: string; kind: string; missingFacts: number; facts: number }>;
  budgets: BudgetRow[];
  /** What the `auto` arm did: cases answered by classic, cases escalated, and the escalations per reason (numbers as N). */
  routing: AutoRouting;
  /** Present when repeat > 1. */
  repeats?: RepeatSpread[];
  /** Every case of every arm (agentic first), with its full run. */
  cases: CaseResult[];
}

/** Runs a compare with these options will make at most (for a progress bar). */
export function compareRunCount(options: Pick<CompareOptions, 'cases' | 'budgets' | 'repeat' | 'maxSearches'>): number {
  const extraBudgets = sweepBudgets(options).filter((budget) => budget !== (options.maxSearches ?? 6)).length;
  return options.cases.length * (4 + Math.max(0, (options.repeat ?? 1) - 1) + extraBudgets);
}

/**
 * Runs classic and agentic answering on the same cases with the same Answer type and citation
 * check: the agentic arm first, then `classicAsk` at k=5 and at k = the agent's mean chunks
 * seen (so both arms see as much text), then the `auto` arm (`routedAsk`: classic at that k,
 * escalating to the agent when a check fails), then the repeats and the budget sweep. A failed case
 * is retried once after a backoff; one that still fails is recorded as failed, never dropped.
 *
 * @example
 * const result = await runCompare({ cases: compareCases(dataset), docs: dataset.docs, index, model });
 * result.rows; // [{ kind: 'multi_hop', arm: 'agentic', recall: 0.95, pass: 0.9, ... }, ...]
 */
export async function runCompare(options: CompareOptions): Promise<CompareResult> {
  const maxSearches = options.maxSearches ?? 6;
  const terms = distinctiveTerms(options.docs);
  const agenticPass = async (budget: number) => {
    const results = await runArm(options, 'agentic', (item) =>
      agenticRun(item.question, { ...askOptions(options, item), index: options.index, maxSearches: budget }),
    );
    return results.map((result) => (result.pass ? result : { ...result, bucket: bucketOf(result, terms) }));
  };

  const planned = compareRunCount(options);
  options.onPlan?.(planned);
  const agentic = await agenticPass(maxSearches);
  const fairK = Math.max(1, Math.round(mean(agentic.map((result) => result.chunks))));
  const classicKs = fairK === 5 ? [5] : [5, fairK];
  if (classicKs.length === 1) options.onPlan?.(planned - options.cases.length);
  const classic: CaseResult[] = [];
  for (const k of classicKs) {
    classic.push(...(await runArm(options, `classic@${k}`, (item) => classicAsk(item.question, { ...askOptions(options, item), index: options.index, k }))));
  }

  // Classic at the fair k first, the agent when a check fails (routedAsk); its searches and chunks count both passes.
  const auto = (
    await runArm(options, 'auto', (item) =>
      routedAsk(item.question, { ...askOptions(options, item), index: options.index, maxSearches, route: 'auto', classicK: fairK }),
    )
  ).map(withClassicPass);

  const passes = [agentic];
  for (let repeat = 1; repeat < (options.repeat ?? 1); repeat++) passes.push(await agenticPass(maxSearches));
  const budgets: BudgetRow[] = [];
  for (const budget of sweepBudgets(options)) {
    budgets.push(budgetRow(budget, budget === maxSearches ? agentic : await agenticPass(budget)));
  }

  const arms = [...classicKs.map((k) => `classic@${k}`), 'agentic', 'auto'];
  const cases = [...agentic, ...classic, ...auto];
  return {
    arms,
    fairK,
    rows: compareRows(cases, arms),
    answers: answerRows(cases, arms),
    buckets: bucketCounts(agentic),
    failures: agentic.flatMap((result) => (result.bucket ? [{ caseId: result.caseId, kind: result.kind, bucket: result.bucket }] : [])),
    incomplete: agentic.flatMap((result) =>
      result.pass && !result.correct ? [{ caseId: result.caseId, kind: result.kind, missingFacts: result.missingFacts.length, facts: result.facts.length }] : [],
    ),
    budgets,
    routing: autoRouting(auto),
    ...(passes.length > 1 ? { repeats: repeatSpread(passes) } : {}),
    cases,
  };
}

function sweepBudgets(options: Pick<CompareOptions, 'budgets'>): number[] {
  return [...new Set(options.budgets ?? [])];
}

function askOptions(options: CompareOptions, item: EvalCase) {
  const filter = caseFilter(item, options.filter);
  return {
    model: options.model,
    ...(options.closestModel ? { closestModel: options.closestModel } : {}),
    price: options.price ?? null,
    ...options.limits,
    ...(options.policy ? { policy: options.policy, policyStrict: options.policyStrict === true } : {}),
    ...(options.strictClaims ? { strictClaims: true } : {}),
    ...(options.modelLabels ? { modelLabels: options.modelLabels } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(filter ? { filter } : {}),
  };
}

/** One arm over every case, through the worker pool, each case retried once on failure. */
function runArm(options: CompareOptions, arm: string, run: (item: EvalCase) => Promise<AgentRun>): Promise<CaseResult[]> {
  return runPool(options.cases, options.concurrency ?? 4, async (item) => {
    const outcome = await withRetry(() => run(item), {
      failed: runFailed,
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.retryBackoffMs === undefined ? {} : { backoffMs: options.retryBackoffMs }),
      onRetry: (_attempt, reason) => options.onRetry?.(item.id, reason),
    }).catch((error: unknown) => thrownRun(item.question, error));
    options.onRunDone?.();
    return scoreRun(item, arm, outcome);
  });
}

function bucketOf(result: CaseResult, terms: ReturnType<typeof distinctiveTerms>): FailureBucket {
  return classifyFailure(
    {
      gold: result.gold,
      seenDocIds: result.seenDocIds,
      citedDocIds: result.citedDocIds,
      queries: result.run.trace.steps.map((step) => step.query),
      errored: runFailed(result.run),
    },
    terms,
  );
}

/** What the `auto` arm of a compare did. */
export interface AutoRouting {
  /** Cases the classic pass answered. */
  classic: number;
  /** Cases escalated to the agent. */
  agentic: number;
  /** Cases whose run threw even after the retry (no route recorded). */
  failed: number;
  /** Escalations per reason, numbers written N and quoted text "…" so that like reasons group, most frequent first. */
  reasons: Array<{ reason: string; cases: number }>;
}

/**
 * Counts of the `auto` arm's routes and escalation reasons.
 *
 * @example
 * autoRouting(autoResults); // { classic: 30, agentic: 92, failed: 0, reasons: [{ reason: 'the question has N parts', cases: 60 }, ...] }
 */
export function autoRouting(results: CaseResult[]): AutoRouting {
  const counts = new Map<string, number>();
  let classic = 0;
  let failed = 0;
  for (const { run } of results) {
    if (run.route !== 'agentic') {
      if (run.route === 'classic') classic += 1;
      else failed += 1;
      continue;
    }
    const reason = (run.routeReason ?? 'no reason recorded').replace(/^escalated: /, '').replace(/"[^"]*"/g, '"…"').replace(/\d+(?:\.\d+)?/g, 'N');
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const reasons = [...counts].map(([reason, cases]) => ({ reason, cases })).sort((a, b) => b.cases - a.cases || a.reason.localeCompare(b.reason));
  return { classic, agentic: results.length - classic - failed, failed, reasons };
}

/** An escalated auto case also spent the classic pass: its search and its chunks count (tokens and latency already do). */
function withClassicPass(result: CaseResult): CaseResult {
  const classic = result.run.escalatedFrom;
  if (!classic) return result;
  return { ...result, searches: result.searches + searchCount(classic), chunks: result.chunks + classic.trace.evidence.length };
}
