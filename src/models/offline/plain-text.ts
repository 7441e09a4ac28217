/**
 * Documentation text as a reader sees it: markdown rendered as plain text, and placeholder notes
 * (TODO) told apart from documentation. Pure functions, no state.
 */
import { closingTagNames } from '../../corpus/markdown/html.ts';
import { renderInline } from './inline-markdown.ts';

/**
 * A note that a page is unfinished ("TODO: which VACUUM options should we recommend?"): it says
 * the docs do not know. It runs to the end of its line, and on across hard wraps: while a line
 * does not end a sentence (`.`, `!`, `?`, or the full-width `。！？` of Chinese and Japanese), the
 * next line of the same paragraph (not blank, not a list item, quote, table row, heading or
 * fence) still belongs to the note.
 */
const PLACEHOLDER_NOTE = /\b(?:TODO|FIXME|TBD)\b[^\n]*(?:(?<![.!?。！？][ \t]*)\n(?![ \t]*(?:\n|$|[-*+>|#]|\d+\.\s|```|~~~))[^\n]*)*/g;

/** A fence line of a markdown code block (its marker: three or more backticks or tildes). */
const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})[^\n]*$/gm;

/**
 * The placeholder notes of a text outside its fenced code blocks: a `// TODO: uncomment this
 * line` of an example is an exercise for the reader, not a gap of the docs.
 */
function proseNotes(text: string): RegExpExecArray[] {
  const notes = [...text.matchAll(PLACEHOLDER_NOTE)];
  if (notes.length === 0) return notes;
  const blocks: Array<[start: number, end: number]> = [];
  let open: { start: number; marker: string } | undefined;
  for (const line of text.matchAll(FENCE_LINE)) {
    const marker = line[1]!.charAt(0);
    if (open === undefined) open = { start: line.index, marker };
    else if (marker === open.marker) {
      blocks.push([open.start, line.index + line[0].length]);
      open = undefined;
    }
  }
  // A block cut off at the end of a passage runs to its end.
  if (open !== undefined) blocks.push([open.start, text.length]);
  return notes.filter((note) => !blocks.some(([start, end]) => note.index >= start && note.index < end));
}

/**
 * True when a sentence is a placeholder note, not documentation.
 *
 * @example
 * isPlaceholderNote('TODO: post perfTest results.'); // true
 */
export function isPlaceholderNote(sentence: string): boolean {
  return /^\s*(?:TODO|FIXME|TBD)\b/.test(sentence);
}

/**
 * The placeholder notes of a text, each as one line (hard wraps joined); none inside fenced code.
 *
 * @example
 * placeholderNotes('Intro.\nTODO: post results on an\nRDS server.\nEnd.'); // ['TODO: post results on an RDS server.']
 */
export function placeholderNotes(text: string): string[] {
  return proseNotes(text).map((match) => match[0].replace(/\s+/g, ' ').trim());
}

/**
 * A text without its placeholder notes (from "TODO" to the end of the note, hard wraps included;
 * a TODO in fenced code is kept).
 *
 * @example
 * withoutPlaceholderNotes('Intro.\nTODO: write this.'); // 'Intro.\n'
 */
export function withoutPlaceholderNotes(text: string): string {
  let kept = '';
  let from = 0;
  for (const note of proseNotes(text)) {
    kept += text.slice(from, note.index);
    from = note.index + note[0].length;
  }
  return kept + text.slice(from);
}

/**
 * A code line without VitePress's (Shiki's) notation comments (`// [!code error]`, `# [!code
 * highlight]`, `<!-- [!code focus] -->`): the site renders them as colours, not as code.
 *
 * @example
 * withoutCodeMarks("vi.hoisted(() => { value }) // throws an error // [!code warning]"); // 'vi.hoisted(() => { value }) // throws an error'
 */
export function withoutCodeMarks(line: string): string {
  return line.replace(/\s*(?:\/\/|#|<!--|\/\*)\s*\[!code [^\]\n]*\](?:\s*(?:-->|\*\/))?/g, '');
}

/**
 * A line of code as a reader sees it in running text: a code span, without VitePress's notation
 * comments ({@link withoutCodeMarks}); a line that holds a backtick as it is (a span could not
 * hold it). Empty for a line with no code.
 *
 * @example
 * codeSpan('  python3 -m venv tutorial-env'); // '`python3 -m venv tutorial-env`'
 */
export function codeSpan(line: string): string {
  const code = withoutCodeMarks(line).trim();
  return code === '' || code.includes('`') ? code : `\`${code}\``;
}

/** Options of {@link plainText}. */
export interface PlainTextOptions {
  /**
   * The header row of the table a row of the text belongs to (`| Option | Default |`), when the
   * text does not hold it: the row then reads as its cells with their column headers.
   */
  tableHeader?: string;
}

/**
 * Markdown rendered as plain text for display, keeping every value a reader would copy: code
 * spans as written (backticks included), placeholders in angle brackets (`<queue>`), a `*` or `_`
 * that is not emphasis (`65536*1024`, `max_pool_size`), numbers and units. Emphasis markers,
 * link targets, HTML tags, components and comments are removed; backslash escapes (`\|`, `\_`)
 * and HTML entities (`&mdash;`, `&#39;`) rendered; whitespace (hard line wraps included)
 * collapsed (see `renderInline`). A table row reads as its cells with their column headers when
 * the header is known (in the text above it, or `tableHeader`): "Option: `maxPoolSize`; Default:
 * 10"; else as its cells between ` | `. A header row reads as its cells; delimiter rows vanish. A
 * fenced code block reads as its lines, each a code span (a quote of a sentence and its example).
 *
 * @example
 * plainText('Use `add_job` &mdash; see [Jobs](jobs.md) for <queue>'); // 'Use `add_job` \u2014 see Jobs for <queue>'
 * plainText('| `maxPoolSize` | 10 |', { tableHeader: '| Option | Default |' }); // 'Option: `maxPoolSize`; Default: 10'
 */
export function plainText(text: string, options: PlainTextOptions = {}): string {
  const closed = closingTagNames(text);
  const render = (markdown: string) => renderInline(markdown, closed);
  const givenHeader = options.tableHeader === undefined ? undefined : tableCells(options.tableHeader).map(render);
  let header = givenHeader;
  const pieces: string[] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) pieces.push(render(prose.join('\n')));
    prose = [];
  };
  const lines = text.split('\n');
  let fence: string | undefined;
  lines.forEach((line, index) => {
    // A fenced code block reads as its lines, each a code span as written (the fences vanish).
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined || fenceMark !== undefined) {
      flush();
      if (fence === undefined) fence = fenceMark;
      else if (fenceMark !== undefined && fenceMark.startsWith(fence)) fence = undefined;
      else pieces.push(codeSpan(line));
      return;
    }
    if (!isTableRow(line)) {
      // A table ends at its first line that is not a row, and its header with it.
      header = givenHeader;
      if (line.trim() !== '' || prose.length > 0) prose.push(line);
      return;
    }
    flush();
    if (isDelimiterRow(line)) return;
    const cells = tableCells(line).map(render);
    if (isDelimiterRow(lines[index + 1] ?? '')) {
      header = cells;
      pieces.push(cells.filter((cell) => cell !== '').join(' | '));
    } else {
      pieces.push(header === undefined ? cells.filter((cell) => cell !== '').join(' | ') : withHeaders(cells, header));
    }
  });
  flush();
  return pieces.filter((piece) => piece !== '').join(' ');
}

/** Whether a line is a table row (it starts with `|`). */
function isTableRow(line: string): boolean {
  return line.trimStart().startsWith('|');
}

/** Whether a line is a table's delimiter row (`|---|:---:|`). */
function isDelimiterRow(line: string): boolean {
  return /^\s*\|?(?:\s*:?-+:?\s*\|)+\s*(?::?-+:?\s*)?$/.test(line);
}

/**
 * The cells of a table row, as GFM splits it: at every unescaped `|`, code spans included;
 * `\|` is a `|` of the cell. The outer pipes open and close the row.
 */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  const text = row.trim();
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '\\' && text[at + 1] === '|') {
      cell += '|';
      at++;
    } else if (char === '\\') {
      cell += text.slice(at, at + 2);
      at++;
    } else if (char === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell.trim());
  if (text.startsWith('|')) cells.shift();
  if (text.endsWith('|') && !text.endsWith('\\|') && cells.length > 0) cells.pop();
  return cells;
}

/** A row's cells with their column headers: "Option: `x`; Default: 10" (empty cells left out). */
function withHeaders(cells: string[], header: string[]): string {
  let text = '';
  cells.forEach((cell, index) => {
    if (cell === '') return;
    const name = header[index] ?? '';
    const piece = name === '' ? cell : `${name}: ${cell}`;
    text += text === '' ? piece : /[.;:!?]$/.test(text) ? ` ${piece}` : `; ${piece}`;
  });
  return text;
}
