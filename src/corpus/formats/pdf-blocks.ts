import { createMarkdownWriter, type MarkdownWriter } from './markdown-writer.ts';
import type { ConvertedPage } from './converted.ts';
import { pdfCodeBlock } from './pdf-code.ts';
import type { PdfLine } from './pdf-lines.ts';

/**
 * The lines of a PDF (running headers and footers dropped) as markdown, with the page of every
 * markdown line. Headings come from type sizes: the body size is the size of most characters,
 * and each larger size of short lines is a heading level, largest first (wrapped heading lines
 * joined); a line all in a monospace font is sized as the body text around its inline code is
 * (`mono` at 85% of the body in a heading at 18 points is at 18), so a heading of code is at its
 * level. Lines all in a monospace font make code blocks (see `pdfCodeBlock`), monospace runs in a
 * line code spans. Body lines make paragraphs, a new one after a gap larger than the usual line
 * spacing or at a list item: a line after a drawn bullet, or that starts with a bullet glyph
 * (`•`, `◦`, `▪`, `-`, ...) or a number and a dot (`2.`); a list item deeper than the one before
 * it is nested under it. A paragraph goes on across a page break when it had not ended (no
 * closing punctuation and the next page starts in lower case). A word hyphenated at a line end is
 * joined (`stor-` `age` -> `storage`). With a `title` (the document properties') that the first
 * heading is not, every heading is one level deeper: sections of the titled document.
 *
 * @example
 * pdfLinesToMarkdown([[{ text: 'Intro', size: 16, x: 0, y: 700, page: 1 }, { text: 'Some text.', size: 10, x: 0, y: 680, page: 1 }]]).markdown; // '# Intro\n\nSome text.\n'
 */
export function pdfLinesToMarkdown(pages: PdfLine[][], title?: string): Pick<ConvertedPage, 'markdown' | 'linePages'> {
  const lines = withMonospaceSizes(pages.flat());
  // The body size of the text that is not code (of the code, in a document of code only).
  const text = lines.filter((line) => line.code === undefined);
  const body = bodySize(text.length > 0 ? text : lines);
  const levels = headingLevels(lines, body);
  // A document titled in its properties whose first heading is not that title: its headings are sections under the title.
  const first = lines.find((line) => levels.has(line.size));
  // (Its first line only: a heading wrapped onto two lines starts the title.)
  if (title !== undefined && first !== undefined && !title.trim().toLowerCase().startsWith(first.text.trim().toLowerCase())) {
    for (const [size, level] of levels) levels.set(size, Math.min(6, level + 1));
  }
  const headingLevel = (line: PdfLine) => (line.text.length <= 160 ? levels.get(line.size) : undefined);
  // (A list item all in code is a list item: its bullet is drawn; a bullet glyph in a code block is code.)
  const isCode = (line: PdfLine) => line.code !== undefined && line.listItem !== true && headingLevel(line) === undefined;
  const spacing = lineSpacing(lines, body, (line) => line.code === undefined && line.size === body) ?? body * 1.2;
  const codeSpacing = lineSpacing(lines, body, isCode) ?? spacing;
  const writer = createMarkdownWriter();
  const linePages: number[] = [];
  const emit: Emit = (pageOf, write) => {
    const start = writer.lineCount();
    write();
    while (linePages.length < writer.lineCount()) linePages.push(pageOf(linePages.length - start));
  };
  const paragraphs = createParagraphs(writer, emit, spacing);
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    const level = headingLevel(line);
    if (level !== undefined) {
      paragraphs.close();
      let text = line.text;
      // A heading wrapped onto the next line(s): same size, close below.
      while (lines[at + 1]?.size === line.size && lines[at + 1]!.page === line.page && lines[at]!.y - lines[at + 1]!.y < line.size * 1.8) text += ` ${lines[++at]!.text}`;
      emit(() => line.page, () => writer.heading(level, text));
      continue;
    }
    // A line all in code below a line that ends in code is inline code wrapped onto it, not a code block.
    if (isCode(line) && !(paragraphs.below(line) && paragraphs.endsInCode())) {
      paragraphs.close();
      const block = pdfCodeBlock(lines, at, { isCode, spacing: codeSpacing });
      // The opening fence (and the blank line before it) on the first line's page, each line of code on its own, the closing fence on the last.
      const fence = writer.lineCount() === 0 ? 1 : 2;
      emit((index) => block.pages[Math.min(Math.max(0, index - fence), block.pages.length - 1)]!, () => writer.code(block.text));
      at = block.end - 1;
      continue;
    }
    paragraphs.add(line);
  }
  paragraphs.close();
  return { markdown: writer.text(), linePages };
}

/** Writes with `write`, then gives each markdown line it wrote the page `pageOf` its index among them. */
type Emit = (pageOf: (index: number) => number, write: () => void) => void;

/**
 * The paragraph or list item being read, which body lines join or end: a line right below the
 * one before (or the first of a page, when the paragraph had not ended) goes on with it, a line
 * that starts a list item starts one, nested under the items further left.
 */
function createParagraphs(writer: MarkdownWriter, emit: Emit, spacing: number) {
  let paragraph: { text: string; page: number; prefix: string; indent: number } | undefined;
  // The list items open above the line, outermost first: where each starts and where its content is indented to in the markdown.
  let items: Array<{ x: number; content: number }> = [];
  let previous: PdfLine | undefined;
  const end = () => {
    if (paragraph === undefined) return;
    const { text, page, prefix, indent } = paragraph;
    emit(() => page, () => writer.paragraph(text, prefix, indent));
    paragraph = undefined;
  };
  // Right below the line before on its page, as the lines of a paragraph are.
  const below = (line: PdfLine) =>
    previous !== undefined && previous.page === line.page && previous.y - line.y <= spacing * 1.3 && Math.abs(line.x - previous.x) < line.size * 3;
  return {
    below,
    endsInCode: () => paragraph?.text.endsWith('`') === true,
    /** Ends the paragraph and the lists (at a heading or a code block). */
    close() {
      end();
      [previous, items] = [undefined, []];
    },
    add(line: PdfLine) {
      // A body line's text keeps its links and code (a heading's is its text alone, as in HTML).
      const lineText = line.markdown ?? line.text;
      const marker = listMarker(line, lineText);
      const text = marker === undefined ? lineText : lineText.slice(marker.length);
      const samePage = previous !== undefined && previous.page === line.page;
      const continues =
        paragraph !== undefined && marker === undefined && (samePage ? below(line) : !/[.!?:;]["')\]]?$/.test(paragraph.text) && /^[a-z]/.test(text));
      if (continues) paragraph!.text = joinLine(paragraph!.text, text);
      else {
        end();
        if (marker === undefined) {
          items = [];
          paragraph = { text, page: line.page, prefix: '', indent: 0 };
        } else {
          // Close the items at or right of this one: what is left are the items it is nested in.
          while (items.length > 0 && items.at(-1)!.x > line.x - line.size * 0.5) items.pop();
          const indent = items.at(-1)?.content ?? 0;
          items.push({ x: line.x, content: indent + marker.prefix.length });
          paragraph = { text, page: line.page, prefix: marker.prefix, indent };
        }
      }
      previous = line;
    },
  };
}

/** Bullet glyphs that start a list item: the round, square and triangular ones, and Symbol's and Wingdings' bullets as Word exports them. */
const BULLET = /^[•◦▪▫●○■□‣⁃∙\uf0b7\uf0a7](?:\s+|(?=\S))|^[-–*]\s+/;
const NUMBER = /^(\d{1,3})[.)]\s+(?=\S)/;

/**
 * The list item a line starts, if any: its markdown prefix (`- `, `2. `) and how much of the line's
 * text is its label (the bullet glyph or number); a line after a drawn bullet has no label in its text.
 */
function listMarker(line: PdfLine, text: string): { prefix: string; length: number } | undefined {
  const number = NUMBER.exec(text);
  if (number !== null) return { prefix: `${Number(number[1])}. `, length: number[0].length };
  const bullet = BULLET.exec(text);
  if (bullet !== null) return { prefix: '- ', length: bullet[0].length };
  return line.listItem === true ? { prefix: '- ', length: 0 } : undefined;
}

/**
 * Lines with the size of a line all in a monospace font set as the body text around inline code
 * is: its monospace size divided by the usual ratio of inline code to the text of its line (the
 * most common, over the lines with both), so that code set at 85% is sized as the text it stands in.
 */
function withMonospaceSizes(lines: PdfLine[]): PdfLine[] {
  const ratios = new Map<number, number>();
  for (const line of lines) {
    if (line.code !== undefined || line.monospaceSize === undefined || line.size <= 0) continue;
    const ratio = Math.round((line.monospaceSize / line.size) * 100) / 100;
    ratios.set(ratio, (ratios.get(ratio) ?? 0) + 1);
  }
  const ratio = [...ratios].sort((left, right) => right[1] - left[1] || left[0] - right[0])[0]?.[0] ?? 1;
  if (ratio === 1) return lines;
  return lines.map((line) => (line.code === undefined ? line : { ...line, size: Math.round((line.monospaceSize! / ratio) * 2) / 2 }));
}

/**
 * `stor-` + `age` -> `storage`; a code span wrapped onto the next line, one again (`` `five` `` +
 * `` `days` `` -> `` `five days` ``, without the space after a hyphen); else the two joined with a space.
 */
function joinLine(text: string, next: string): string {
  if (/[A-Za-z]-$/.test(text) && /^[a-z]/.test(next)) return text.slice(0, -1) + next;
  if (/(?:^|[^`])`$/.test(text) && /^`[^`]/.test(next)) return `${text.slice(0, -1)}${text.endsWith('-`') ? '' : ' '}${next.slice(1)}`;
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

/** The usual distance between the baselines of two lines in a row that `counts` (the median), for telling paragraphs apart; undefined when no two are. */
function lineSpacing(lines: PdfLine[], body: number, counts: (line: PdfLine) => boolean): number | undefined {
  const gaps: number[] = [];
  for (let at = 1; at < lines.length; at++) {
    const [above, below] = [lines[at - 1]!, lines[at]!];
    if (above.page === below.page && counts(above) && counts(below)) {
      const gap = above.y - below.y;
      if (gap > 0 && gap < body * 3) gaps.push(gap);
    }
  }
  gaps.sort((left, right) => left - right);
  return gaps[Math.floor(gaps.length / 2)];
}
