// Markdown text into quotable units: sentences of prose, list items, table rows with their header
// row, code lines; each an exact substring of the text, with the heading above it.
import { SPACELESS_CHAR } from './scripts.ts';

/**
 * Splits markdown text into sentence-like units that can be quoted verbatim: table rows and
 * list items are units of their own; prose splits after ., ! or ? followed by a capital (not
 * after `e.g.` or an initial), and after 。！？ (Chinese, Japanese) and the other scripts' stops.
 * Every unit is an exact substring of `text`.
 */
export function sentences(text: string): string[] {
  return sentenceUnits(text).map((unit) => unit.text);
}

/** A quotable unit of a text: an exact substring, whether it is code, and the heading above it. */
export interface SentenceUnit {
  text: string;
  /** Inside a fenced code block. */
  code: boolean;
  /** Text of the nearest markdown heading line above the unit within the same text, if any. */
  heading?: string;
  /** The unit is a heading line itself (or a table's header row): context for what follows, not an answer. */
  isHeading?: boolean;
  /**
   * For a table row: the header row of its table as the text writes it (`| Option | Default |`),
   * when the text holds it (the chunker repeats it in every chunk of a split table), so the row
   * can be read with its column names (`plainText(row, { tableHeader })`).
   */
  tableHeader?: string;
}

/** A table's delimiter row (`|---|:---:|`), or such a row inside a snippet's collapsed table. */
const DELIMITER_ROW = /^\|?\s*:?-{3,}/;

/**
 * {@link sentences}, each marked with whether it sits inside a fenced code block and under which
 * heading of the text. Lines of one prose paragraph are joined first (hard-wrapped markdown), so
 * a sentence never stops at a line break; the citation check compares whitespace-normalised
 * text, so the quote still verifies. A table row is one unit, whatever sentences its cells hold
 * ("Arguments as a JSON object. Defaults to none." stays with its option), and carries its
 * table's header row; the header row is a heading-like unit.
 */
export function sentenceUnits(text: string): SentenceUnit[] {
  const units: SentenceUnit[] = [];
  let code = false;
  let heading: string | undefined;
  let tableHeader: string | undefined;
  // The block being collected: a prose paragraph or one list item with its continuation lines.
  let block: string[] = [];
  const push = (line: string, isCode: boolean, isHeading = false) => pushPieces(units, line, isCode, heading, isHeading);
  const flush = () => {
    if (block.length > 0) push(block.join(' '), false);
    block = [];
  };
  const lines = text.split(/\n/);
  lines.forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (!line.startsWith('|')) tableHeader = undefined;
    if (/^(?:```|~~~)/.test(line)) {
      flush();
      code = !code;
      return;
    }
    if (code) {
      push(line, true);
      return;
    }
    if (line === '' || DELIMITER_ROW.test(line)) {
      flush();
      return;
    }
    if (/^#{1,6}\s/.test(line)) {
      flush();
      push(line, false, true);
      heading = line.replace(/^#+\s+/, '').replace(/\s*\{#[^}]*\}\s*$/, '');
    } else if (line.startsWith('|')) {
      flush();
      const next = (lines[index + 1] ?? '').trim();
      tableHeader = pushTableRows(units, line, DELIMITER_ROW.test(next), { tableHeader, heading });
    } else if (line.startsWith('>')) {
      // Quotes stand alone.
      flush();
      push(line, false);
    } else if (/^(?:[-*+]\s|\d+\.\s)/.test(line)) {
      flush();
      block.push(line);
    } else {
      // Prose lines join their paragraph; a list item's wrapped lines join the item.
      block.push(line);
    }
  });
  flush();
  return units;
}

/**
 * The rows of a table line as units: one row, or the rows of a snippet's collapsed table
 * ("| a | b | | --- | --- | | c | d |"). A row followed by a delimiter row is its table's header:
 * a heading-like unit, and the `tableHeader` of the rows after it. Returns the header in effect
 * after the line.
 */
function pushTableRows(units: SentenceUnit[], line: string, headerFollows: boolean, context: { tableHeader?: string; heading?: string }): string | undefined {
  let { tableHeader } = context;
  const rows = line.split(/(?<=\|)\s+(?=\|)/);
  rows.forEach((row, index) => {
    if (DELIMITER_ROW.test(row)) return;
    const isHeader = index + 1 < rows.length ? DELIMITER_ROW.test(rows[index + 1]!) : headerFollows;
    // A row cut off by a snippet's "…" is a fragment, not something to quote or learn from.
    const text = /…\s*$/.test(row) ? '' : row.trim().replace(/^…\s*/, '');
    if (text.length >= 12) {
      units.push({
        text,
        code: false,
        ...(context.heading === undefined ? {} : { heading: context.heading }),
        ...(isHeader ? { isHeading: true } : tableHeader === undefined ? {} : { tableHeader }),
      });
    }
    if (isHeader) tableHeader = row.trim();
  });
  return tableHeader;
}

/**
 * Where prose splits into sentences (a snippet's collapsed list and table too):
 * - after `. ! ?` and a space, before a capital of any cased script (`Это`, `À partir`, `Δεύτερη`),
 *   a letter of a script without case (Arabic, Hebrew, Devanagari, Hangul: no capital marks its
 *   sentences), an opening quote or bracket, or code;
 * - after the full stops and question marks of other scripts, spaces or not: Chinese and Japanese
 *   `。！？` (a closing quote or bracket stays with them; not the full-width `．`, which joins the
 *   parts of a foreign name: `斯蒂芬．瑞士`), the danda `।` `॥` of Hindi, Bengali and the other
 *   Indic scripts, Arabic `؟`, Urdu `۔`, Armenian `։`, Ethiopic `።` `፧`, Myanmar `။`, Khmer `។`,
 *   Tibetan `།`;
 * - after a Greek question mark (`;` after a Greek letter) before a capital;
 * - at a space between two Thai or Lao letters: those scripts have no full stop, a space ends a
 *   sentence or a clause (their words are written without spaces);
 * - but never at the dot of an abbreviation or an initial ({@link dotEndsSentence}).
 */
const SENTENCE_BREAK =
  /(?<=[.!?:])\s+[-*]\s+(?=\S)|(?<=[.!?])\s+(?=[\p{Lu}\p{Lt}\p{Lo}`"'«„“‘¿¡(\[*_])|(?<=\|)\s+(?=\|)|(?<=[。！？][」』”’）]?)(?![」』”’）。！？])\s*|(?<=[।॥؟۔։።፧။។།])(?![।॥།"”’»)\]])\s*|(?<=\p{Script=Greek};)\s+(?=\p{Lu})|(?<=[\u0e01-\u0e5b\u0e81-\u0edf])\s+(?=[\u0e01-\u0e5b\u0e81-\u0edf])/u;

/** Shortest quotable unit of text with Chinese or Japanese in it (a character says about what an English word does). */
const MIN_SPACELESS_UNIT = 6;

/**
 * Abbreviations whose final dot does not end a sentence (`e.g.`, `Dr.`), without their dot. Not
 * `etc.`: before a capital it ends one more often than not ("memory usage, etc. If the module ...").
 */
export const ABBREVIATIONS: ReadonlySet<string> = new Set(
  'e.g i.e vs cf c ca al approx fig nos mr mrs ms dr st jr sr prof inc ltd corp dept vol resp incl esp'.split(' '),
);

/**
 * Whether a dot that ends `before` (the text up to and with it) may end a sentence: not after an
 * abbreviation (`(e.g.`, `Dr.`) nor after an initial (`J.` of "J. R. R. Tolkien").
 *
 * @example
 * dotEndsSentence('Use a tool (e.g.'); // false
 * dotEndsSentence('Use a tool.'); // true
 */
export function dotEndsSentence(before: string, abbreviations: ReadonlySet<string> = ABBREVIATIONS): boolean {
  const last = /(?:^|[^\p{L}\p{N}._\\])([\p{L}\p{N}.]+)$/u.exec(before)?.[1] ?? '';
  if (/^\p{Lu}\.?$/u.test(last)) return false; // an initial
  return !abbreviations.has(last.toLowerCase().replace(/\.$/, ''));
}

const SENTENCE_BREAKS = new RegExp(SENTENCE_BREAK.source, 'gu');

/**
 * The sentences of a line of prose (see {@link SENTENCE_BREAK}), each an exact substring: a dot
 * after an abbreviation or an initial ends none ("(e.g. `coro()` instead of ...)" is one).
 */
function splitSentences(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of line.matchAll(SENTENCE_BREAKS)) {
    const at = match.index;
    if (at === 0 && match[0] === '') continue;
    if (line[at - 1] === '.' && !dotEndsSentence(line.slice(start, at))) continue;
    pieces.push(line.slice(start, at));
    start = at + match[0].length;
  }
  pieces.push(line.slice(start));
  return pieces;
}

function pushPieces(units: SentenceUnit[], line: string, code: boolean, heading: string | undefined, isHeading: boolean): void {
  // Prose splits after sentence ends, a snippet's collapsed list at its " - " markers and its
  // collapsed table between rows ("| |").
  const pieces = splitSentences(line);
  for (const piece of pieces) {
    // A piece cut off by a snippet's "…" is a fragment, not something to quote or learn from.
    if (/…\s*$/.test(piece)) continue;
    const unit = piece.trim().replace(/^(?:[-*+]|\d+\.)\s+/, '').replace(/^#+\s+/, '').replace(/^>\s*/, '').replace(/^…\s*/, '').trim();
    if (unit.length < (SPACELESS_CHAR.test(unit) ? MIN_SPACELESS_UNIT : 12)) continue;
    units.push({ text: unit, code, ...(heading === undefined ? {} : { heading }), ...(isHeading ? { isHeading } : {}) });
  }
}
