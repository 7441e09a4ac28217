import { FAILURE_BUCKETS } from '../buckets.ts';
import type { DecisionReport } from '../decisions.ts';
import type { CompareReport } from './report-json.ts';
import type { RetrievalResult, RetrievalRow } from '../retrieval.ts';
import { answersTable, budgetTable, repeatTable, resultsLegend, resultsTable, type TableData } from './compare-tables.ts';
import { IDENTIFIER_K, type IdentifierCheck } from '../identifier-check.ts';
import { formatTable } from './table.ts';

const formatTableData = ({ header, rows }: TableData) => formatTable(header, rows);

/**
 * The human output of `atlas eval retrieval`: the recall table, then the identifier check.
 *
 * @example
 * io.stdout(formatRetrievalReport('orbit', await runRetrievalEval(options)));
 */
export function formatRetrievalReport(dataset: string, result: Pick<RetrievalResult, 'rows' | 'identifiers'>): string {
  return `${formatRetrievalTable(dataset, result.rows)}
${formatIdentifierCheck(result.identifiers)}`;
}

function formatRetrievalTable(dataset: string, rows: RetrievalRow[]): string {
  const table = formatTable(
    ['kind', 'arm', 'n', 'recall', 'read recall', 'allFound', 'abstain', 'searches', 'chunks', 'p50 ms'],
    rows.map((row) => [
      row.kind,
      row.maxChunks === undefined ? row.arm : `${row.arm} (<=${row.maxChunks} chunks)`,
      row.n,
      row.recall,
      row.readRecall,
      row.allFound,
      row.abstainRate,
      row.searches,
      row.chunks,
      row.p50Ms,
    ]),
  );
  return `Retrieval eval on ${dataset} (recall: share of gold pages among the chunks seen; read recall: among the chunks read in full)\n\n${table}`;
}

function formatIdentifierCheck({ rows, cases }: IdentifierCheck): string {
  const title = `Identifier queries (kind exact_term, or naming an identifier): rank of the first gold chunk in plain index.search(query, { k: ${IDENTIFIER_K} }), no version filter`;
  if (cases.length === 0) return `${title}: none in this dataset.\n`;
  const table = formatTable(
    ['kind', 'n', `mrr@${IDENTIFIER_K}`, 'hit@1', `hit@${IDENTIFIER_K}`],
    rows.map((row) => [row.kind, row.n, row.mrr10, row.hit1, row.hit10]),
  );
  const missed = cases.filter((item) => item.rank === null).map((item) => item.id);
  return `${title}\n\n${table}${missed.length > 0 ? `No gold chunk in the top ${IDENTIFIER_K}: ${missed.join(', ')}\n` : ''}`;
}

/**
 * The human output of `atlas eval compare`: the table per (kind, arm), failure buckets, and the
 * budget sweep and repeat spread when asked for.
 *
 * @example
 * io.stdout(formatCompareReport(report));
 */
export function formatCompareReport(report: Omit<CompareReport, 'cases'>): string {
  const parts = [
    `Classic vs agentic on ${report.dataset} (model ${report.model}; fair classic k = ${report.fairK}, the agent's mean chunks seen)\n`,
    formatTableData(resultsTable(report.rows, { calls: false })),
    resultsLegend(report.rows).map((line) => `  ${line}\n`).join(''),
    ...(report.answers ? ['\nAnswers (correct: answerable cases with every fact; wrong: answered and not correct, unanswerable ones included; closest useful: abstained answerable cases whose closest passages hold the facts; words: as a reader counts them, in Chinese or Japanese the words Intl.Segmenter finds):\n', formatTableData(answersTable(report.answers))] : []),
    `\nFailed agentic cases by bucket: ${FAILURE_BUCKETS.map((bucket) => `${bucket} ${report.buckets[bucket]}`).join(', ')}\n`,
  ];
  for (const bucket of FAILURE_BUCKETS) {
    const ids = report.failures.filter((failure) => failure.bucket === bucket).map((failure) => failure.caseId);
    if (ids.length > 0) parts.push(`  ${bucket}: ${ids.join(', ')}\n`);
  }
  if (report.incomplete.length > 0) {
    const ids = report.incomplete.map((item) => `${item.caseId} (${item.missingFacts}/${item.facts})`);
    parts.push(`\nAgentic cases that pass but miss facts (missing/listed): ${report.incomplete.length}\n  ${ids.join(', ')}\n`);
  }
  const { routing } = report;
  const failed = routing.failed > 0 ? `, ${routing.failed} failed` : '';
  parts.push(`\nAuto arm (classic at k = ${report.fairK} first): ${routing.classic} answered by classic, ${routing.agentic} escalated to the agent${failed}\n`);
  for (const { reason, cases } of routing.reasons) parts.push(`  ${cases}: ${reason}\n`);
  if (report.budgets.length > 0) {
    parts.push(
      '\nBudget sweep (agentic):\n',
      formatTableData(budgetTable(report.budgets)),
    );
  }
  if (report.repeats) {
    parts.push(
      `\nSpread over ${report.repeats[0]?.repeats ?? 0} agentic repeats:\n`,
      formatTableData(repeatTable(report.repeats)),
    );
  }
  return parts.join('');
}

/**
 * The human output of `atlas eval decisions`.
 *
 * @example
 * io.stdout(formatDecisionReport('orbit', report));
 */
export function formatDecisionReport(dataset: string, report: DecisionReport): string {
  const { confusion } = report;
  const lines = [
    `Search-or-answer decisions on ${dataset} (${report.n} questions, firstTurn auto)`,
    `  searched when it should:            ${report.searchedWhenItShould.correct}/${report.searchedWhenItShould.of}`,
    `  answered directly when it should:   ${report.answeredDirectlyWhenItShould.correct}/${report.answeredDirectlyWhenItShould.of}`,
    `  confusion (positive = searched):    tp ${confusion.tp}, fp ${confusion.fp}, tn ${confusion.tn}, fn ${confusion.fn}`,
    `  accuracy:                           ${report.accuracy}`,
  ];
  if (report.wrong.length > 0) {
    lines.push('', 'Wrong decisions:');
    for (const wrong of report.wrong) {
      const did = wrong.searched ? `searched (${wrong.queries.map((query) => `"${query}"`).join(', ')})` : 'answered directly';
      lines.push(`  ${wrong.id}: "${wrong.question}": expected ${wrong.expectSearch ? 'a search' : 'a direct answer'}, ${did}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
