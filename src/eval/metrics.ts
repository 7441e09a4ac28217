import type { AgentRun } from '../agent/run-types.ts';

/**
 * Share of the gold doc ids that appear in `found` (1 when every gold page was found).
 * Undefined for an empty gold list: recall is not defined where there is nothing to find.
 *
 * @example
 * docRecall(['flows', 'limits'], ['flows', 'scheduling']); // 0.5
 */
export function docRecall(gold: string[], found: Iterable<string>): number | undefined {
  if (gold.length === 0) return undefined;
  const seen = new Set(found);
  return gold.filter((docId) => seen.has(docId)).length / gold.length;
}

/** Doc ids of every chunk a run saw or read, in first-seen order (the run's evidence). */
export function evidenceDocIds(run: AgentRun): string[] {
  return [...new Set(run.trace.evidence.map((item) => item.docId))];
}

/**
 * Doc ids of the chunks a run read in full (read_section, read_neighbors, or a classic retrieval
 * shown as full section text), not only saw as a search snippet; in first-seen order.
 */
export function readEvidenceDocIds(run: AgentRun): string[] {
  return [...new Set(run.trace.evidence.filter((item) => item.source === 'read').map((item) => item.docId))];
}

/** Doc ids the run's verified citations point to, in order. */
export function citedDocIds(run: AgentRun): string[] {
  return [...new Set(run.answer.citations.map((citation) => citation.docId))];
}

/**
 * Searches a run actually made: budget refusals are not searches (duplicates are, as the budget
 * counts them).
 */
export function searchCount(run: AgentRun): number {
  return run.trace.steps.filter((step) => step.note !== 'budget-exhausted' && step.note !== 'chunk-budget').length;
}

/** Arithmetic mean; 0 for an empty list. */
export function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Median (mean of the two middle values for an even count); 0 for an empty list. */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Population standard deviation; 0 for fewer than two values. */
export function stdev(values: number[]): number {
  if (values.length < 2) return 0;
  const average = mean(values);
  return Math.sqrt(mean(values.map((value) => (value - average) ** 2)));
}

/** Share of true values; 0 for an empty list. */
export function share(values: boolean[]): number {
  return values.length === 0 ? 0 : values.filter(Boolean).length / values.length;
}

/** Rounds to 3 decimals (the precision of every eval table). */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * Sum of the costs, or null when any is unknown (a null cost is never counted as 0).
 *
 * @example
 * totalCost([0.01, 0.02]); // 0.03
 * totalCost([0.01, null]); // null
 */
export function totalCost(costs: Array<number | null>): number | null {
  let total = 0;
  for (const cost of costs) {
    if (cost === null) return null;
    total += cost;
  }
  return total;
}

/** Min, max, mean and standard deviation of repeated measurements, rounded to 3 decimals. */
export interface Spread {
  min: number;
  max: number;
  mean: number;
  stdev: number;
}

/** The {@link Spread} of `values`. */
export function spreadOf(values: number[]): Spread {
  return {
    min: round3(values.length === 0 ? 0 : Math.min(...values)),
    max: round3(values.length === 0 ? 0 : Math.max(...values)),
    mean: round3(mean(values)),
    stdev: round3(stdev(values)),
  };
}
