import { createMarkdownWriter } from './markdown-writer.ts';
import type { ConvertedPage } from './converted.ts';
import type { PdfLine } from './pdf-lines.ts';

/**
 * The lines of a PDF (running headers and footers dropped) as markdown, with the page of every
 * markdown line. Headings come from type sizes: the body size is the size of most characters,
 * and each larger size of short lines is a heading level, largest first (wrapped heading lines
 * joined). Body lines make paragraphs, a new one after a gap larger than the usual line spacing
 * or at a bullet; a paragraph goes on across a page break when it had not ended
 * (no closing punctuation and the next page starts in lower case). A word hyphenated at a line
 * end is joined (`stor-` `age` -> `storage`). With a `title` (the document properties') that the
 * first heading is not, every heading is one level deeper: sections of the titled document.
 *
 * @example
 * pdfLinesToMarkdown([[{ text: 'Intro', size: 16, x: 0, y: 700, page: 1 }, { text: 'Some text.', size: 10, x: 0, y: 680, page: 1 }]]).markdown; // '# Intro\n\nSome text.\n'
 */
export function pdfLinesToMarkdown(pages: PdfLine[][], title?: string): Pick<ConvertedPage, 'markdown' | 'linePages'> {
  const lines = pages.flat();
  const body = bodySize(lines);
  const levels = headingLevels(lines, body);
  // A document titled in its properties whose first heading is not that title: its headings are sections under the title.
  const first = lines.find((line) => levels.has(line.size));
  // (Its first line only: a heading wrapped onto two lines starts the title.)
  if (title !== undefined && first !== undefined && !title.trim().toLowerCase().startsWith(first.text.trim().toLowerCase())) {
    for (const [size, level] of levels) levels.set(size, Math.min(6, level + 1));
  }
  const spacing = lineSpacing(lines, body);
  const writer = createMarkdownWriter();
  const linePages: number[] = [];
  const emit = (page: number, write: () => void) => {
    write();
    while (linePages.length < writer.lineCount()) linePages.push(page);
  };
  let paragraph: { text: string; page: number; bullet: boolean } | undefined;
  let previous: PdfLine | undefined;
  const endParagraph = () => {
    if (paragraph === undefined) return;
    const { text, page, bullet } = paragraph;
    emit(page, () => writer.paragraph(text, bullet ? '- ' : ''));
    paragraph = undefined;
  };
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    const level = levels.get(line.size);
    if (level !== undefined && line.text.length <= 160) {
      endParagraph();
      let text = line.text;
      // A heading wrapped onto the next line(s): same size, close below.
      while (lines[at + 1]?.size === line.size && lines[at + 1]!.page === line.page && lines[at]!.y - lines[at + 1]!.y < line.size * 1.8) text += ` ${lines[++at]!.text}`;
      emit(line.page, () => writer.heading(level, text));
      previous = undefined;
      continue;
    }
    // A body line's text keeps its links (a heading's is its text alone, as in HTML).
    const lineText = line.markdown ?? line.text;
    const bullet = /^[•◦▪●○■–]\s*/.exec(lineText);
    const text = bullet ? lineText.slice(bullet[0].length) : lineText;
    const samePage = previous !== undefined && previous.page === line.page;
    const gap = samePage ? previous!.y - line.y : 0;
    const continues =
      paragraph !== undefined &&
      bullet === null &&
      (samePage ? gap <= spacing * 1.3 && Math.abs(line.x - previous!.x) < line.size * 3 : !/[.!?:;]["')\]]?$/.test(paragraph.text) && /^[a-z]/.test(text));
    if (continues) paragraph!.text = joinLine(paragraph!.text, text);
    else {
      endParagraph();
      paragraph = { text, page: line.page, bullet: bullet !== null };
    }
    previous = line;
  }
  endParagraph();
  return { markdown: writer.text(), linePages };
}

/** `stor-` + `age` -> `storage`; else the two joined with a space. */
function joinLine(text: string, next: string): string {
  if (/[A-Za-z]-$/.test(text) && /^[a-z]/.test(next)) return text.slice(0, -1) + next;
  return `${text} ${next}`;
}

/** The type size of most characters. */
function bodySize(lines: PdfLine[]): number {
  const chars = new Map<number, number>();
  for (const line of lines) chars.set(line.size, (chars.get(line.size) ?? 0) + line.text.length);
  let best = 0;
  let most = -1;
  for (const [size, count] of chars) if (count > most || (count === most && size < best)) [best, most] = [size, count];
  return best;
}

/** Heading level by type size: the sizes at least 12% above the body size, largest first, six at most. */
function headingLevels(lines: PdfLine[], body: number): Map<number, number> {
  const sizes = [...new Set(lines.filter((line) => line.size >= body * 1.12 && line.text.length <= 160).map((line) => line.size))].sort((left, right) => right - left);
  return new Map(sizes.slice(0, 6).map((size, rank) => [size, rank + 1]));
}

/** The usual distance between the baselines of two body lines in a row (the median), for telling paragraphs apart. */
function lineSpacing(lines: PdfLine[], body: number): number {
  const gaps: number[] = [];
  for (let at = 1; at < lines.length; at++) {
    const [above, below] = [lines[at - 1]!, lines[at]!];
    if (above.page === below.page && above.size === body && below.size === body) {
      const gap = above.y - below.y;
      if (gap > 0 && gap < body * 3) gaps.push(gap);
    }
  }
  gaps.sort((left, right) => left - right);
  return gaps[Math.floor(gaps.length / 2)] ?? body * 1.2;
}
