/**
 * Builds the markdown a converted page is indexed as: blocks (headings, paragraphs, list items,
 * code, tables, quotes) separated by blank lines, text put on lines so that markdown-it reads it
 * back as the same blocks (a line that would start a heading, list or quote is escaped).
 */
export interface MarkdownWriter {
  heading(level: number, text: string): void;
  /** A paragraph (or list item: `prefix` "- " / "1. ", with `indent` spaces before it). */
  paragraph(text: string, prefix?: string, indent?: number): void;
  code(text: string, language?: string): void;
  /** A table, its first row the header; cells are inline text. */
  table(rows: string[][]): void;
  /** The markdown so far, one string, ending with a newline (empty when nothing was written). */
  text(): string;
  /** Lines written so far. */
  lineCount(): number;
}

/** Inline text on one line: whitespace runs collapsed to one space, trimmed. */
export function collapseSpace(text: string): string {
  // Most text has single spaces only: then trimming is all there is to do.
  return MORE_THAN_A_SPACE.test(text) ? text.replace(/[\s\u00a0]+/g, ' ').trim() : text.trim();
}
/** Whitespace other than one space (`\s` holds `\u00a0`). */
const MORE_THAN_A_SPACE = /[^\S ]| {2}/;

/**
 * A markdown link of `text` to `href`, the whitespace around the text kept outside the brackets;
 * the text alone when it is blank or the target itself (an autolink), brackets in the text and
 * spaces, parentheses and angle brackets in the target escaped.
 *
 * @example
 * markdownLink('the [events] system ', '/docs/worker events'); // '[the \\[events\\] system](/docs/worker%20events) '
 */
export function markdownLink(text: string, href: string): string {
  const label = collapseSpace(text);
  if (label === '' || label === href) return text;
  const before = /^\s*/.exec(text)![0];
  const after = /\s*$/.exec(text)![0];
  const target = href.replace(/[\s()<>]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `${before}[${label.replace(/[[\]]/g, '\\$&')}](${target})${after}`;
}

// A line that markdown-it would read as something other than paragraph text.
const BLOCK_START = /^(?:#{1,6}(?:\s|$)|[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|>|```|~~~|\||={2,}\s*$|-{2,}\s*$|<|:::|\{%)/;

/** A paragraph line made safe: a leading block marker escaped with a backslash. */
export function escapeLine(text: string): string {
  return BLOCK_START.test(text) ? `\\${text}` : text;
}

/**
 * A {@link MarkdownWriter} collecting lines.
 *
 * @example
 * const writer = createMarkdownWriter();
 * writer.heading(1, 'Install');
 * writer.paragraph('Run it.');
 * writer.text(); // '# Install\n\nRun it.\n'
 */
export function createMarkdownWriter(): MarkdownWriter {
  const lines: string[] = [];
  const block = (blockLines: string[]) => {
    if (lines.length > 0) lines.push('');
    lines.push(...blockLines);
  };
  return {
    heading(level, text) {
      const line = collapseSpace(text);
      if (line !== '') block([`${'#'.repeat(Math.min(Math.max(level, 1), 6))} ${line}`]);
    },
    paragraph(text, prefix = '', indent = 0) {
      const line = collapseSpace(text);
      if (line === '') return;
      block([`${' '.repeat(indent)}${prefix}${prefix === '' ? escapeLine(line) : line}`]);
    },
    code(text, language = '') {
      const body = text.replace(/^\n+|\s+$/g, '');
      if (body === '') return;
      const fence = body.includes('```') ? '~~~~' : '```';
      block([`${fence}${language}`, ...body.split('\n'), fence]);
    },
    table(rows) {
      const width = Math.max(0, ...rows.map((row) => row.length));
      if (width === 0) return;
      const cell = (text: string) => collapseSpace(text).replace(/\|/g, '\\|');
      const line = (row: string[]) => `| ${Array.from({ length: width }, (_, at) => cell(row[at] ?? '')).join(' | ')} |`;
      block([line(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)]);
    },
    text: () => (lines.length === 0 ? '' : `${lines.join('\n')}\n`),
    lineCount: () => lines.length,
  };
}
