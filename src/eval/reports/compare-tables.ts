import type { AnswerRow, BudgetRow, CompareRow, RepeatSpread } from '../compare-rows.ts';
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
    header: ['kind', 'arm', 'n', 'recall', 'read recall', 'pass', 'correct', 'factRecall', 'supported claims', 'abstain', 'searches', 'chunks', ...(options.calls ? ['calls'] : []), 'tokens', '$/q', 'p50 s'],
    rows: rows.map((row) => [
      row.kind,
      row.arm,
      row.n,
      row.recall,
      row.readRecall,
      row.pass,
      row.correct,
      row.factRecall,
      row.supportedClaims,
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

/**
 * The answers per arm: answered, correct, wrong, precision, closest passages holding the answer,
 * unanswerable abstained, answer words.
 *
 * @example
 * const { header, rows } = answersTable(report.answers);
 */
export function answersTable(rows: AnswerRow[]): TableData {
  return {
    header: ['arm', 'n', 'answered', 'correct', 'wrong', 'precision', 'closest useful', 'correct+closest', 'unanswerable abstained', 'median words', 'max words'],
    rows: rows.map((row) => [
      row.arm,
      row.n,
      row.answered,
      row.correct,
      row.wrong,
      row.precision,
      row.closestUseful,
      row.correctOrClosest,
      `${row.unanswerableAbstained}/${row.unanswerable}`,
      row.medianWords,
      row.maxWords,
    ]),
  };
}

/** The budget sweep: recall, pass, correct and cost of the agentic arm per search budget. */
export function budgetTable(budgets: BudgetRow[]): TableData {
  return {
    header: ['max searches', 'n', 'recall', 'pass', 'correct', 'factRecall', 'searches', 'chunks', 'tokens', '$/q'],
    rows: budgets.map((row) => [row.maxSearches, row.n, row.recall, row.pass, row.correct, row.factRecall, row.searches, row.chunks, row.tokens, formatUsd(row.costPerQuery)]),
  };
}

/** The spread of recall, pass and correct over repeated agentic runs, per kind. */
export function repeatTable(repeats: RepeatSpread[]): TableData {
  return {
    header: ['kind', 'recall min', 'recall max', 'recall stdev', 'pass min', 'pass max', 'pass stdev', 'correct min', 'correct max', 'correct stdev'],
    rows: repeats.map((row) => [
      row.kind,
      row.recall?.min,
      row.recall?.max,
      row.recall?.stdev,
      row.pass.min,
      row.pass.max,
      row.pass.stdev,
      row.correct.min,
      row.correct.max,
      row.correct.stdev,
    ]),
  };
}

/**
 * What the results table's columns mean, one line each (printed under the text table and in the
 * HTML report), with how many cases list facts.
 *
 * @example
 * resultsLegend(report.rows); // ['recall: share of gold pages among the chunks seen or read', ...]
 */
export function resultsLegend(rows: CompareRow[]): string[] {
  const all = rows.find((row) => row.kind === 'all');
  const facts = all ? `${all.withFacts} of the ${all.n} cases list facts` : 'no case lists facts';
  return [
    'recall: share of gold pages among the chunks seen or read; read recall: among the chunks read in full (classic passages are full text)',
    'pass: cites a gold page (abstains where there is none)',
    `correct: not abstained and every fact present in the answer text or its quotes (a case without facts counts as correct when it passes); abstained where there is no gold page. ${facts}`,
    'factRecall: mean share of facts present, over the answerable cases that list facts ("-": none does)',
    `supported claims: share of the answers' claims (sentences and clauses) that a verified quote supports (content words, identifiers and numbers, agent/trust/claims.ts); abstentions make none ("-": no claim). Claims per arm: ${claimCounts(rows)}`,
  ];
}

function claimCounts(rows: CompareRow[]): string {
  const all = rows.filter((row) => row.kind === 'all');
  return all.length === 0 ? 'none' : all.map((row) => `${row.arm} ${row.claims}`).join(', ');
}
