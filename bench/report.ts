import type { SizeResult } from './run.ts';

/**
 * Renders bench results as two plain-text tables (ingest, search), one row per corpus size.
 *
 * @example
 * process.stdout.write(formatTable(results));
 */
export function formatTable(results: SizeResult[]): string {
  const ingest = [
    ['chunks', 'docs', 'markdown MB', 'parse ch/s', 'sqlite ingest ch/s', 'parse+sqlite ch/s', 're-ingest same ms', 're-ingest 1% ms', 'db MB', 'minisearch ch/s'],
    ...results.map((result) => [
      result.chunks, result.docs, result.markdownMB, result.ingest.parseChunksPerSecond, result.ingest.sqliteChunksPerSecond,
      result.ingest.parseAndSqliteChunksPerSecond, result.ingest.reingestUnchangedMs, result.ingest.reingestOnePercentChangedMs,
      result.ingest.dbMB, result.ingest.minisearchChunksPerSecond,
    ]),
  ];
  const search = [
    ['chunks', 'queries', 'k', 'sqlite p50 ms', 'sqlite p99 ms', 'mini p50 ms', 'mini p99 ms', 'ratio p50', 'ratio p99', 'zero-hit sqlite/mini', 'overlap@k'],
    ...results.map((result) => {
      const { search: s } = result;
      return [
        result.chunks, s.queries, s.k, ms(s.sqlite.p50), ms(s.sqlite.p99), ms(s.minisearch.p50), ms(s.minisearch.p99),
        s.ratioP50, s.ratioP99, `${s.sqliteZeroHitQueries}/${s.minisearchZeroHitQueries}`, s.overlapAtK,
      ];
    }),
  ];
  return `Ingest (ch/s = chunks per second)\n${grid(ingest)}\n\nSearch (ratio = sqlite / minisearch; half the queries filter version 3.x)\n${grid(search)}`;
}

const ms = (value: number) => value.toFixed(2);

function grid(rows: Array<Array<string | number>>): string {
  const cells = rows.map((row) => row.map(String));
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) => row.map((cell, column) => cell.padStart(widths[column]!)).join('  ')).join('\n');
}
