/**
 * The units a snippet is chosen among: a chunk's text read line by line, once. A paragraph of
 * prose (its hard-wrapped lines joined), a list item, one line of a code block, a heading line,
 * a table's header row and each of its body rows are units of their own; a table's delimiter row
 * (`|:---|---|`) and code fences are none. Each unit knows the heading line of the chunk's text
 * it sits under, so a hit can be named after the part of the chunk where it matched.
 */

/** What a unit is: it decides how the snippet shows it. */
export type SnippetUnitKind = 'prose' | 'code' | 'heading' | 'header' | 'row';

/** A heading line inside a chunk's text: its depth (`###` is 3) and its text without markup. */
export interface TextHeading {
  depth: number;
  text: string;
}

/** One unit of a chunk's text. */
export interface SnippetUnit {
  kind: SnippetUnitKind;
  /** As a snippet shows it: whitespace runs collapsed to one space, trimmed. */
  text: string;
  /** For a header or body row: the header row of its table, as shown (collapsed). */
  header?: string;
  /** For a header or body row: which table of the text it belongs to (0, 1, ...). */
  table?: number;
  /** The heading line of the text the unit follows, if any. */
  under?: TextHeading;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\S/;
/** A table's delimiter row: cells of dashes, each maybe with colons (`:---:`), separated by pipes. */
const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * The units of `text`, in order (see the module comment). Deterministic, one pass over the lines.
 *
 * @example
 * snippetUnits('Intro.\n\n| Code | Meaning |\n|:---|---|\n| E1 | bad |').map((unit) => unit.kind);
 * // ['prose', 'header', 'row']
 */
export function snippetUnits(text: string): SnippetUnit[] {
  const lines = text.split('\n');
  const units: SnippetUnit[] = [];
  let fence: string | undefined;
  let prose: string[] = [];
  let under: TextHeading | undefined;
  let table: { header: string; index: number } | undefined;
  let tables = 0;
  const flush = () => {
    if (prose.length > 0) units.push(withHeading({ kind: 'prose', text: collapse(prose.join(' ')) }, under));
    prose = [];
  };
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      else if (line.trim() !== '') units.push(withHeading({ kind: 'code', text: collapse(line) }, under));
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      flush();
      table = undefined;
      fence = opening[1]!;
      continue;
    }
    if (line.trim() === '') {
      flush();
      table = undefined;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      table = undefined;
      under = { depth: heading[1]!.length, text: headingText(heading[2]!) };
      units.push({ kind: 'heading', text: collapse(line), under });
      continue;
    }
    if (table !== undefined && line.includes('|')) {
      units.push(withHeading({ kind: 'row', text: collapse(line), header: table.header, table: table.index }, under));
      continue;
    }
    const next = lines[at + 1];
    if (line.includes('|') && next !== undefined && next.includes('-') && DELIMITER_ROW.test(next)) {
      flush();
      table = { header: collapse(line), index: tables++ };
      units.push(withHeading({ kind: 'header', text: table.header, header: table.header, table: table.index }, under));
      at++; // the delimiter row is no unit
      continue;
    }
    table = undefined;
    if (LIST_ITEM.test(line)) flush();
    prose.push(line);
  }
  flush();
  return units;
}

/**
 * The heading line of a text that its line `line` (from 0) sits under: the last heading line at
 * or before it outside code blocks, or undefined when none is (the line is under the chunk's own
 * heading).
 *
 * @example
 * headingAbove(['Intro.', '### `addJob()`', 'Adds a job.'], 2); // { depth: 3, text: 'addJob()' }
 * headingAbove(['Intro.', '### `addJob()`', 'Adds a job.'], 0); // undefined
 */
export function headingAbove(lines: readonly string[], line: number): TextHeading | undefined {
  let under: TextHeading | undefined;
  for (const heading of textHeadings(lines, line)) under = heading;
  return under;
}

/**
 * The heading lines of a chunk's text (`lines`) up to line `last` (0-based; default: all), in
 * order; code fences are skipped.
 *
 * @example
 * textHeadings(['Intro.', '### `addJob()`', 'Adds a job.']); // [{ depth: 3, text: 'addJob()' }]
 */
export function textHeadings(lines: readonly string[], last = lines.length - 1): TextHeading[] {
  const headings: TextHeading[] = [];
  let fence: string | undefined;
  for (let at = 0; at <= Math.min(last, lines.length - 1); at++) {
    const text = lines[at]!;
    if (fence !== undefined) {
      if (text.trimStart().startsWith(fence) && text.trim().replace(/[`~]/g, '') === '') fence = undefined;
      continue;
    }
    const opening = FENCE.exec(text);
    if (opening) {
      fence = opening[1]!;
      continue;
    }
    const heading = HEADING.exec(text);
    if (heading) headings.push({ depth: heading[1]!.length, text: headingText(heading[2]!) });
  }
  return headings;
}

function withHeading(unit: SnippetUnit, under: TextHeading | undefined): SnippetUnit {
  if (under !== undefined) unit.under = under;
  return unit;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A heading's text as headings are named (see corpus/markdown/heading-text.ts): without a trailing
 * `{#id}`, link syntax, HTML tags, backticks or emphasis marks; `_` inside words stays.
 *
 * @example
 * headingText('`helpers.addJob()` {#add-job}'); // 'helpers.addJob()'
 */
export function headingText(raw: string): string {
  return raw
    .replace(/[ \t]*\{#[^}]*\}[ \t]*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/(^|[^\p{L}\p{N}*_])[*_]{1,3}|[*_]{1,3}(?=[^\p{L}\p{N}*_]|$)/gu, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
