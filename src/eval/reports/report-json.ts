import type { CompareResult } from '../compare.ts';

/** Version of the report.json format; bumped when a field changes meaning. */
export const REPORT_SCHEMA_VERSION = 1;

/** What a compare report says about the run that produced it. */
export interface ReportMeta {
  dataset: string;
  model: string;
  maxSearches: number;
  concurrency: number;
}

/** The report.json document: the tables plus every case with its full trace. */
export interface CompareReport extends ReportMeta, Omit<CompareResult, 'cases'> {
  schemaVersion: number;
  cases: Array<Omit<CompareResult['cases'][number], 'run'> & { run: CompareResult['cases'][number]['run'] }>;
}

/**
 * The report document of a compare run.
 *
 * @example
 * const report = compareReport(result, { dataset: 'orbit', model: 'offline', maxSearches: 6, concurrency: 4 });
 */
export function compareReport(result: CompareResult, meta: ReportMeta): CompareReport {
  return { schemaVersion: REPORT_SCHEMA_VERSION, ...meta, ...result };
}

/** The stdout summary of `atlas eval compare --json`: the report without the per-case traces. */
export function compareSummary(report: CompareReport): Omit<CompareReport, 'cases'> {
  const { cases: _cases, ...summary } = report;
  return summary;
}
