import type { BudgetRow, CompareRow, RepeatSpread } from './compare-rows.ts';
import { formatUsd, type Cell } from './table.ts';

/** A table's header and rows, rendered as text by `format.ts` and as HTML by `report-html.ts`. */
export interface TableData {
  header: string[];
  rows: Cell[][];
}

/**
 * The results per (kind, arm); `calls` adds the model-calls column (the HTML report has room for it).
 *
 * @example
 * const { header, rows } = resultsTable(report.rows, { calls: true });
 */
export function resultsTable(rows: CompareRow[], options: { calls: boolean }): TableData {
  const calls = (row: CompareRow): Cell[] => (options.calls ? [row.modelCalls] : []);
  return {
    header: ['kind', 'arm', 'n', 'recall', 'pass', 'abstain', 'searches', 'chunks', ...(options.calls ? ['calls'] : []), 'tokens', '$/q', 'p50 s'],
    rows: rows.map((row) => [
      row.kind,
      row.arm,
      row.n,
      row.recall,
      row.pass,
      row.abstain,
      row.searches,
      row.chunks,
      ...calls(row),
      row.tokens,
      formatUsd(row.costPerQuery),
      row.p50s,
    ]),
  };
}

/** The budget sweep: recall, pass and cost of the agentic arm per search budget. */
export function budgetTable(budgets: BudgetRow[]): TableData {
  return {
    header: ['max searches', 'n', 'recall', 'pass', 'searches', 'chunks', 'tokens', '$/q'],
    rows: budgets.map((row) => [row.maxSearches, row.n, row.recall, row.pass, row.searches, row.chunks, row.tokens, formatUsd(row.costPerQuery)]),
  };
}

/** The spread of recall and pass over repeated agentic runs, per kind. */
export function repeatTable(repeats: RepeatSpread[]): TableData {
  return {
    header: ['kind', 'recall min', 'recall max', 'recall stdev', 'pass min', 'pass max', 'pass stdev'],
    rows: repeats.map((row) => [row.kind, row.recall?.min, row.recall?.max, row.recall?.stdev, row.pass.min, row.pass.max, row.pass.stdev]),
  };
}
