import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderReportHtml } from './report-html.ts';
import type { CompareReport } from './report-json.ts';

/**
 * Writes `report.json` and the self-contained `report.html` into `dir` (created if missing).
 *
 * @example
 * const files = await writeReports('reports', report); // { json: 'reports/report.json', html: 'reports/report.html' }
 */
export async function writeReports(dir: string, report: CompareReport): Promise<{ json: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'report.json');
  const html = path.join(dir, 'report.html');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(html, renderReportHtml(report));
  return { json, html };
}
