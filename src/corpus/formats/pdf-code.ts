import type { PdfLine } from './pdf-lines.ts';

/** A code block of a PDF: its text, the page of each of its lines, and the index of the first line after it. */
export interface PdfCodeBlock {
  text: string;
  pages: number[];
  end: number;
}

/**
 * The code block that starts at `lines[start]`: it goes on while the lines are code (`isCode`: all
 * in a monospace font, not a heading) one, two or three line spacings apart (a blank line or two
 * between), and onto the next page from the last line of a page; a larger gap that is no whole
 * number of line spacings is the margin between two blocks (two code blocks in a row, as tabs of a
 * code group are printed). Line breaks and indentation are kept: a line is indented by its distance
 * from the block's leftmost line in characters.
 *
 * @example
 * const code = (text: string, x: number, y: number): PdfLine => ({ text, x, y, size: 10, page: 1, code: { text, charWidth: 6 } });
 * pdfCodeBlock([code('if (ok) {', 40, 500), code('run();', 52, 488), code('}', 40, 476)], 0, { isCode: () => true, spacing: 12 }).text;
 * // 'if (ok) {\n  run();\n}'
 */
export function pdfCodeBlock(lines: PdfLine[], start: number, options: { isCode: (line: PdfLine) => boolean; spacing: number }): PdfCodeBlock {
  let end = start + 1;
  while (end < lines.length && options.isCode(lines[end]!)) {
    const [above, below] = [lines[end - 1]!, lines[end]!];
    if (below.page === above.page ? !lineSpacingsApart(above.y - below.y, options.spacing) : below.page !== above.page + 1) break;
    end++;
  }
  const block = lines.slice(start, end);
  const left = Math.min(...block.map((line) => line.x));
  const rows: string[] = [];
  const pages: number[] = [];
  for (const [index, line] of block.entries()) {
    const above = block[index - 1];
    if (above !== undefined && above.page === line.page) {
      const blanks = Math.min(2, Math.round((above.y - line.y) / options.spacing) - 1);
      for (let blank = 0; blank < blanks; blank++) {
        rows.push('');
        pages.push(above.page);
      }
    }
    const { text, charWidth } = line.code!;
    rows.push(' '.repeat(charWidth > 0 ? Math.round((line.x - left) / charWidth) : 0) + text);
    pages.push(line.page);
  }
  return { text: rows.join('\n'), pages, end };
}

/**
 * Whether a gap between two lines of code is within a block: at most a line spacing and a quarter
 * (a line wrapped by the printer may be closer), or two or three line spacings, give or take a
 * fifth of one (one or two blank lines).
 */
function lineSpacingsApart(gap: number, spacing: number): boolean {
  const spacings = gap / spacing;
  const whole = Math.round(spacings);
  return spacings <= 1.25 || (whole <= 3 && Math.abs(spacings - whole) <= 0.2);
}
