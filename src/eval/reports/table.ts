/** A table cell: text, a number, or nothing (shown as "-"). */
export type Cell = string | number | null | undefined;

/**
 * A plain-text table: header, rule, rows; numbers right-aligned, text left-aligned.
 *
 * @example
 * formatTable(['kind', 'recall'], [['multi_hop', 0.95]]);
 * // 'kind       recall\n---------  ------\nmulti_hop    0.95\n'
 */
export function formatTable(header: string[], rows: Cell[][]): string {
  const texts = rows.map((row) => header.map((_, column) => cellText(row[column])));
  const numeric = header.map((_, column) => rows.every((row) => typeof row[column] === 'number' || row[column] === null || row[column] === undefined));
  const widths = header.map((title, column) => Math.max(title.length, ...texts.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(header), line(widths.map((width) => '-'.repeat(width))), ...texts.map(line)].join('\n')}\n`;
}

/** How a cell is printed: numbers as they are (already rounded), missing values as "-". */
export function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return '-';
  return String(cell);
}

/**
 * A cost in US dollars for tables: `$0.0123`, or `-` when unknown.
 *
 * @example
 * formatUsd(0.012345); // '$0.0123'
 */
export function formatUsd(cost: number | null | undefined): string {
  if (cost === null || cost === undefined) return '-';
  return `$${cost < 0.01 && cost > 0 ? cost.toPrecision(2) : cost.toFixed(4)}`;
}
