import { FAILURE_BUCKETS } from '../buckets.ts';
import type { CompareRow } from '../compare-rows.ts';
import { answersTable, budgetTable, repeatTable, resultsLegend, resultsTable, type TableData } from './compare-tables.ts';
import type { CompareReport } from './report-json.ts';
import { escapeHtml, renderBarChart } from './report-chart.ts';
import { answerHtml, renderFailedCase } from './report-trace.ts';
import { cellText, formatUsd, type Cell } from './table.ts';

const BUCKET_HELP: Record<string, string> = {
  retrieval: 'a gold page was never seen although the run searched for it',
  ranking: 'every gold page was seen, none was cited',
  generation: 'cited a wrong page although a gold page was seen, or answered where it should abstain',
  planning: 'a gold page was never seen and no query named any distinctive term of its title or headings',
  error: 'the run failed (provider error after retries)',
};

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
.muted{color:#777}.note{color:#b35900;font-size:12px}
table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
table.numbers td.num{text-align:right;font-variant-numeric:tabular-nums}
.charts{display:flex;flex-wrap:wrap;gap:24px}.chart{background:#fafafa;border:1px solid #eee}
.chart-title{font-weight:600;font-size:13px}.tick{font-size:11px;fill:#555}.na{font-size:9px;fill:#999}.axis{stroke:#999}
details.case{border:1px solid #e4e4e4;border-radius:4px;margin:6px 0;padding:4px 8px}details.case summary{cursor:pointer}
details.case[open]{background:#fcfcfc}table.trace th{width:140px;color:#555;font-weight:500}
code{background:#f2f2f2;padding:0 3px;border-radius:3px}code.gold{background:#e3f1df;outline:1px solid #9ccc8f}
.bucket{display:inline-block;font-size:11px;padding:0 6px;border-radius:8px;background:#eee;margin-right:4px}
mark.unsupported{background:#fde2e1}
.bucket-retrieval{background:#fde2e1}.bucket-ranking{background:#fff1c9}.bucket-generation{background:#e6dcf5}.bucket-planning{background:#d9ecf7}.bucket-error{background:#ddd}
`;

/**
 * The self-contained HTML report of a compare run: no script, no network; inline CSS, inline SVG
 * bar charts of recall and cost (tokens when the cost is unknown or $0) per kind and arm, the tables
 * with their legend, and every case that did not pass or was not correct, expandable to its trace.
 * All dataset and model text is escaped.
 *
 * @example
 * await writeFile('reports/report.html', renderReportHtml(report));
 */
export function renderReportHtml(report: CompareReport): string {
  const failed = report.cases.filter((result) => !result.pass || !result.correct);
  const sections = [
    `<h1>Atlas eval: classic vs agentic on ${escapeHtml(report.dataset)}</h1>`,
    `<p class="muted">model <code>${escapeHtml(report.model)}</code> &middot; ${new Set(report.cases.map((result) => result.caseId)).size} cases &middot; agentic search budget ${report.maxSearches} &middot; fair classic k = ${report.fairK} (the agent's mean chunks seen) &middot; concurrency ${report.concurrency}</p>`,
    `<div class="charts">${charts(report)}</div>`,
    '<h2>Results per kind and arm</h2>',
    tableOf(resultsTable(report.rows, { calls: true })),
    `<ul class="muted">${resultsLegend(report.rows).map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    ...(report.answers ? ['<h2>Answers per arm</h2>', tableOf(answersTable(report.answers))] : []),
    '<h2>Failure buckets (agentic)</h2>',
    tableOf({
      header: ['bucket', 'cases', 'meaning'],
      rows: FAILURE_BUCKETS.map((bucket) => [bucket, report.buckets[bucket], BUCKET_HELP[bucket]]),
    }),
  ];
  if (report.budgets.length > 0) {
    sections.push(
      '<h2>Budget sweep (agentic)</h2>',
      tableOf(budgetTable(report.budgets)),
    );
  }
  if (report.repeats) {
    sections.push(
      `<h2>Spread over ${report.repeats[0]?.repeats ?? 0} agentic repeats</h2>`,
      tableOf(repeatTable(report.repeats)),
    );
  }
  sections.push(...unsupportedClaims(report));
  sections.push(
    `<h2>Failed cases (${failed.length}: not passed or not correct)</h2>`,
    failed.length === 0 ? '<p>Every case passed and was correct.</p>' : failed.map(renderFailedCase).join('\n'),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Atlas eval report: ${escapeHtml(report.dataset)}</title><style>${STYLE}</style></head>
<body>
${sections.join('\n')}
</body></html>
`;
}

/** Answers shown at most in the unsupported-claims list (the counts cover all). */
const MAX_UNSUPPORTED_LISTED = 100;

/** The unsupported claims of every arm: counts per arm, then the answers that have some, claims marked. */
function unsupportedClaims(report: CompareReport): string[] {
  const withUnsupported = report.cases.filter((result) => (result.run.answer.claims ?? []).some((claim) => !claim.supported));
  const perArm = report.arms.map((arm) => {
    const claims = report.cases.filter((result) => result.arm === arm).flatMap((result) => result.run.answer.claims ?? []);
    return [arm, claims.filter((claim) => !claim.supported).length, claims.length] as Cell[];
  });
  const listed = withUnsupported.slice(0, MAX_UNSUPPORTED_LISTED).map(
    (result) => `<li><code>${escapeHtml(result.caseId)}</code> <span class="muted">${escapeHtml(result.arm)}</span>: ${answerHtml(result.run.answer)}</li>`,
  );
  const more = withUnsupported.length > listed.length ? `<p class="muted">and ${withUnsupported.length - listed.length} more answers (report.json has every claim)</p>` : '';
  return [
    `<h2>Unsupported claims (${withUnsupported.length} answers have some)</h2>`,
    tableOf({ header: ['arm', 'unsupported claims', 'claims'], rows: perArm }),
    listed.length === 0 ? '<p>Every claim of every answer is supported by a verified quote.</p>' : `<ul>${listed.join('')}</ul>${more}`,
  ];
}

function charts(report: CompareReport): string {
  const rows = report.rows.filter((row) => row.kind !== 'all');
  const kinds = [...new Set(rows.map((row) => row.kind))];
  const values = (pick: (row: CompareRow) => number | null) =>
    kinds.map((kind) => report.arms.map((arm) => {
      const row = rows.find((candidate) => candidate.kind === kind && candidate.arm === arm);
      return row ? pick(row) : null;
    }));
  const recall = renderBarChart({ title: 'Evidence recall per kind and arm', categories: kinds, series: report.arms, values: values((row) => row.recall), max: 1, format: (value) => value.toFixed(2) });
  const costs = rows.map((row) => row.costPerQuery);
  const second = costs.some((cost) => cost !== null && cost > 0)
    ? renderBarChart({ title: 'Cost per question (USD)', categories: kinds, series: report.arms, values: values((row) => row.costPerQuery), format: (value) => formatUsd(value) })
    : renderBarChart({
        title: `Tokens per question (cost ${costs.every((cost) => cost === null) ? 'unknown: no price' : 'is $0'} for ${report.model})`,
        categories: kinds,
        series: report.arms,
        values: values((row) => row.tokens),
        format: (value) => String(Math.round(value)),
      });
  return `${recall}${second}`;
}

function tableOf({ header, rows }: TableData): string {
  const head = `<tr>${header.map((title) => `<th>${escapeHtml(title)}</th>`).join('')}</tr>`;
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td${typeof cell === 'number' ? ' class="num"' : ''}>${escapeHtml(cellText(cell))}</td>`).join('')}</tr>`)
    .join('');
  return `<table class="numbers">${head}${body}</table>`;
}
