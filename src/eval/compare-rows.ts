import { FAILURE_BUCKETS, type FailureBucket } from './buckets.ts';
import type { CaseResult } from './cases.ts';
import { QUERY_KINDS } from './dataset/dataset-schema.ts';
import { mean, median, round3, share, spreadOf, totalCost, type Spread } from './metrics.ts';

/** One line of the compare table: one arm on one kind of case (or `all`). */
export interface CompareRow {
  kind: string;
  arm: string;
  n: number;
  /** Mean evidence recall over the cases with gold pages; null when the kind has none. */
  recall: number | null;
  /** Mean read recall (gold pages with a chunk read in full) over the cases with gold pages. */
  readRecall: number | null;
  /** Share of cases that pass (cite a gold page; abstain where there is none). */
  pass: number;
  /** Share of cases answered correctly (every fact present; abstained where there is no gold). */
  correct: number;
  /** Mean share of facts present, over the answerable cases that list facts; null when none does. */
  factRecall: number | null;
  /** Answerable cases that list facts (the others are correct when they pass). */
  withFacts: number;
  /**
   * Share of the claims of the answers (abstentions make none) that a verified quote supports
   * (agent/trust/claims.ts), over every claim of the group; null when no answer made a claim.
   */
  supportedClaims: number | null;
  /** Claims of the group's answers (the denominator of `supportedClaims`). */
  claims: number;
  /** Share of cases where the run abstained. */
  abstain: number;
  searches: number;
  chunks: number;
  modelCalls: number;
  /** Mean input + output tokens per case. */
  tokens: number;
  /** Mean cost per case in USD; null when the price is unknown. */
  costPerQuery: number | null;
  /** Median latency in seconds. */
  p50s: number;
}

/**
 * Kinds in table order: the DESIGN.md kinds, then `qa`, then any other kind in first-seen order.
 *
 * @example
 * kindOrder(results); // ['exact_term', 'multi_hop', 'unanswerable', 'qa']
 */
export function kindOrder(results: Array<{ kind: string }>): string[] {
  const present = [...new Set(results.map((result) => result.kind))];
  const known: string[] = [...QUERY_KINDS, 'qa'];
  return [...known.filter((kind) => present.includes(kind)), ...present.filter((kind) => !known.includes(kind))];
}

/**
 * The compare table: one row per (kind, arm), kinds in {@link kindOrder}, arms in the given
 * order, then an `all` row per arm over every case.
 *
 * @example
 * compareRows(results, ['classic@5', 'classic@9', 'agentic']);
 */
export function compareRows(results: CaseResult[], arms: string[]): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const kind of [...kindOrder(results), 'all']) {
    for (const arm of arms) {
      const group = results.filter((result) => result.arm === arm && (kind === 'all' || result.kind === kind));
      if (group.length > 0) rows.push(summarize(kind, arm, group));
    }
  }
  return rows;
}

function summarize(kind: string, arm: string, group: CaseResult[]): CompareRow {
  const cost = totalCost(group.map((result) => result.costUsd));
  const factRecalls = present(group.map((result) => result.factRecall));
  return {
    kind,
    arm,
    n: group.length,
    recall: meanOrNull(present(group.map((result) => result.recall))),
    readRecall: meanOrNull(present(group.map((result) => result.readRecall))),
    pass: round3(share(group.map((result) => result.pass))),
    correct: round3(share(group.map((result) => result.correct))),
    factRecall: meanOrNull(factRecalls),
    withFacts: factRecalls.length,
    ...claimShare(group),
    abstain: round3(share(group.map((result) => result.abstained))),
    searches: round3(mean(group.map((result) => result.searches))),
    chunks: round3(mean(group.map((result) => result.chunks))),
    modelCalls: round3(mean(group.map((result) => result.modelCalls))),
    tokens: round3(mean(group.map((result) => result.inputTokens + result.outputTokens))),
    costPerQuery: cost === null ? null : Math.round((cost / group.length) * 1e6) / 1e6,
    p50s: round3(median(group.map((result) => result.latencyMs)) / 1000),
  };
}

/** Supported claims / claims over a group's answers (a run made before claims existed counts none). */
function claimShare(group: CaseResult[]): { supportedClaims: number | null; claims: number } {
  const claims = group.flatMap((result) => result.run.answer.claims ?? []);
  return { supportedClaims: claims.length === 0 ? null : round3(share(claims.map((claim) => claim.supported))), claims: claims.length };
}

function present(values: Array<number | null>): number[] {
  return values.filter((value): value is number => value !== null);
}

function meanOrNull(values: number[]): number | null {
  return values.length === 0 ? null : round3(mean(values));
}

/**
 * What one arm's answers are worth over every case (issue 37's measures): how many it answered,
 * how many of those were right, and what it showed when it abstained.
 */
export interface AnswerRow {
  arm: string;
  n: number;
  /** Cases answered (not abstained). */
  answered: number;
  /** Answerable cases answered correctly (every fact present; a case without facts: a gold page cited). */
  correct: number;
  /** Answered cases that are not correct, answered unanswerable cases included. */
  wrong: number;
  /** correct / answered; null when nothing was answered. */
  precision: number | null;
  /** Answerable cases abstained on whose closest passages hold every fact (a gold page when the case has no facts). */
  closestUseful: number;
  /** (correct + closestUseful) / answerable cases; null when none is answerable. */
  correctOrClosest: number | null;
  /** Unanswerable cases abstained on, and how many there are. */
  unanswerableAbstained: number;
  unanswerable: number;
  /** Median and largest answer length in words (citation markers not counted); 0 when nothing was answered. */
  medianWords: number;
  maxWords: number;
}

/**
 * One {@link AnswerRow} per arm, in the given order.
 *
 * @example
 * answerRows(results, ['classic@5', 'agentic']);
 */
export function answerRows(results: CaseResult[], arms: string[]): AnswerRow[] {
  return arms
    .map((arm) => results.filter((result) => result.arm === arm))
    .filter((group) => group.length > 0)
    .map((group) => {
      const answered = group.filter((result) => !result.abstained);
      const correct = answered.filter((result) => result.gold.length > 0 && result.correct).length;
      const answerable = group.filter((result) => result.gold.length > 0).length;
      const closestUseful = group.filter((result) => result.closestUseful).length;
      const unanswerable = group.filter((result) => result.gold.length === 0);
      const words = answered.map((result) => result.answerWords ?? 0);
      return {
        arm: group[0]!.arm,
        n: group.length,
        answered: answered.length,
        correct,
        wrong: answered.length - correct,
        precision: answered.length === 0 ? null : round3(correct / answered.length),
        closestUseful,
        correctOrClosest: answerable === 0 ? null : round3((correct + closestUseful) / answerable),
        unanswerableAbstained: unanswerable.filter((result) => result.abstained).length,
        unanswerable: unanswerable.length,
        medianWords: words.length === 0 ? 0 : median(words),
        maxWords: Math.max(0, ...words),
      };
    });
}

/** Counts of failed agentic cases per bucket (every bucket listed, zeros included). */
export function bucketCounts(results: CaseResult[]): Record<FailureBucket, number> {
  const counts = Object.fromEntries(FAILURE_BUCKETS.map((bucket) => [bucket, 0])) as Record<FailureBucket, number>;
  for (const result of results) if (result.bucket) counts[result.bucket] += 1;
  return counts;
}

/** Recall and cost of the agentic arm at one search budget. */
export interface BudgetRow {
  maxSearches: number;
  n: number;
  recall: number | null;
  pass: number;
  correct: number;
  factRecall: number | null;
  searches: number;
  chunks: number;
  tokens: number;
  costPerQuery: number | null;
}

/** The sweep row of one budget, from that budget's agentic results. */
export function budgetRow(maxSearches: number, results: CaseResult[]): BudgetRow {
  const { n, recall, pass, correct, factRecall, searches, chunks, tokens, costPerQuery } = summarize('all', 'agentic', results);
  return { maxSearches, n, recall, pass, correct, factRecall, searches, chunks, tokens, costPerQuery };
}

/** How much the agentic arm moved across `--repeat` runs, per kind and overall. */
export interface RepeatSpread {
  kind: string;
  repeats: number;
  recall: Spread | null;
  pass: Spread;
  correct: Spread;
}

/**
 * The spread of recall, pass and correct per kind (and `all`) across repeated agentic passes.
 *
 * @example
 * repeatSpread([firstPass, secondPass, thirdPass]); // [{ kind: 'multi_hop', recall: { min, max, mean, stdev }, ... }]
 */
export function repeatSpread(passes: CaseResult[][]): RepeatSpread[] {
  const kinds = [...kindOrder(passes.flat()), 'all'];
  return kinds.map((kind) => {
    const rows = passes.map((results) => summarize(kind, 'agentic', results.filter((result) => kind === 'all' || result.kind === kind)));
    const recalls = rows.flatMap((row) => (row.recall === null ? [] : [row.recall]));
    return {
      kind,
      repeats: passes.length,
      recall: recalls.length === 0 ? null : spreadOf(recalls),
      pass: spreadOf(rows.map((row) => row.pass)),
      correct: spreadOf(rows.map((row) => row.correct)),
    };
  });
}
