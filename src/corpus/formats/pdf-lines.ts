/** A run of text as pdf.js places it on a page (`getTextContent` items, reduced). */
export interface PdfTextItem {
  text: string;
  /** Left edge and baseline, in PDF units (y grows upwards). */
  x: number;
  y: number;
  /** Type size and advance width, in PDF units. */
  size: number;
  width: number;
}

/** One line of a page: its text in reading order and where it stands. */
export interface PdfLine {
  text: string;
  x: number;
  y: number;
  size: number;
  page: number;
}

/**
 * The lines of one page, top to bottom, each read left to right: items whose baselines lie
 * within 40% of their type size of each other are one line; pieces of a word (a ligature set
 * apart: "Sta" "ff") are joined without a space, pieces further apart than a fifth of the type
 * size with one.
 *
 * @example
 * pageLines([{ text: 'b', x: 0, y: 10, size: 10, width: 5 }, { text: 'a', x: 0, y: 30, size: 10, width: 5 }], 1).map((line) => line.text); // ['a', 'b']
 */
export function pageLines(items: PdfTextItem[], page: number): PdfLine[] {
  const sorted = items.filter((item) => item.text.trim() !== '' && item.size > 0).sort((left, right) => right.y - left.y || left.x - right.x);
  const groups: PdfTextItem[][] = [];
  for (const item of sorted) {
    const group = groups.at(-1);
    if (group !== undefined && Math.abs(group[0]!.y - item.y) <= Math.max(group[0]!.size, item.size) * 0.4) group.push(item);
    else groups.push([item]);
  }
  return groups.map((group) => lineOf(group.sort((left, right) => left.x - right.x), page));
}

function lineOf(items: PdfTextItem[], page: number): PdfLine {
  let text = '';
  let end = -Infinity;
  let sizeChars = 0;
  let size = 0;
  for (const item of items) {
    const gap = item.x - end;
    if (text !== '' && gap > item.size * 0.2 && !text.endsWith(' ') && !item.text.startsWith(' ')) text += ' ';
    text += item.text;
    end = item.x + item.width;
    // The line's type size: that of most of its characters.
    const chars = item.text.trim().length;
    if (chars > sizeChars) {
      sizeChars = chars;
      size = item.size;
    }
  }
  return { text: text.replace(/\s+/g, ' ').trim(), x: items[0]!.x, y: items[0]!.y, size: Math.round(size * 2) / 2, page };
}

const PAGE_NUMBER = /^(?:(?:page|p\.|seite|página)\s*)?(?:\d{1,5}|[ivxlcdm]{1,7})(?:\s*(?:of|\/|von|de)\s*\d{1,5})?$/i;

/**
 * Pages without their running headers and footers and page numbers: a line among the first two
 * or last two of a page is dropped when it is a page number ("12", "Page 3 of 40", "iv") or when
 * the same text (digits aside) stands at the top or bottom of at least half the pages (and two).
 *
 * @example
 * dropRunningLines([[line('Handbook'), line('Text one.'), line('1')], [line('Handbook'), line('Text two.'), line('2')]]);
 * // [[Text one.], [Text two.]]
 */
export function dropRunningLines(pages: PdfLine[][]): PdfLine[][] {
  const key = (line: PdfLine) => line.text.toLowerCase().replace(/\d+/g, '#');
  const edges = (lines: PdfLine[]) => new Set([...lines.slice(0, 2), ...lines.slice(-2)]);
  const counts = new Map<string, number>();
  for (const lines of pages) for (const seen of new Set([...edges(lines)].map(key))) counts.set(seen, (counts.get(seen) ?? 0) + 1);
  const least = Math.max(2, Math.ceil(pages.length / 2));
  return pages.map((lines) => {
    const edge = edges(lines);
    return lines.filter((line) => !(edge.has(line) && (PAGE_NUMBER.test(line.text) || (counts.get(key(line)) ?? 0) >= least)));
  });
}
