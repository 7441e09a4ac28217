import type { TokenizerOptions } from './analysis/tokenize.ts';
import { OTHER_SCRIPT, scriptAt } from '../text/scripts.ts';
import type { Chunk } from '../corpus/types.ts';
import { createUnitMatcher, type UnitMatch } from './snippet-matches.ts';
import { snippetUnits, type SnippetUnit, type TextHeading } from './snippet-units.ts';
import type { Hit } from './types.ts';

/** Longest snippet, in UTF-16 code units, ellipses included. */
export const SNIPPET_MAX_LENGTH = 300;
/** When the first match lies past the cut, the snippet starts about this many characters before it. */
const LEAD_IN = 60;
/** Where a clause of Chinese or Japanese ends: a snippet of such text starts after one when it can. */
const CLAUSE_ENDS = '。！？；，、';
/** A table's header row keeps at most this share of a snippet, so the matching row fits beside it. */
const HEADER_SHARE = 0.4;
/** Rows a table snippet shows at most (the best first, then those that match as well, in table order). */
const MAX_ROWS = 3;

/** A snippet and where in its chunk it comes from. */
export interface Snippet {
  /** At most {@link SNIPPET_MAX_LENGTH} characters. */
  text: string;
  /**
   * The heading path of the part of the chunk the snippet comes from, when that part lies under
   * a heading line of the chunk's text (a small section merged into its neighbour, a subsection
   * held in its section) and so is not the chunk's own `headingPath`; undefined otherwise.
   */
  headingPath?: string[];
}

/**
 * The part of `text` that best matches the query terms, at most 300 characters (see
 * {@link snippetOf}).
 *
 * @example
 * makeSnippet('Intro.\n\nSet max_payload_kb to 512.', ['maxpayloadkb'], DEFAULT_TOKENIZER)
 * // 'Set max_payload_kb to 512.'
 */
export function makeSnippet(text: string, terms: string[], tokenizer: TokenizerOptions): string {
  return snippetOf({ text, headingPath: [] }, terms, tokenizer).text;
}

/**
 * The snippet of a chunk: its unit ({@link snippetUnits}: a paragraph, a list item, a line of
 * code, a heading line, a table row) holding the most distinct query terms, then the most
 * occurrences, the first one on a tie (the first unit when nothing matches), whitespace
 * collapsed and cut to 300 characters at a word boundary with "…" (a window that starts shortly
 * before the first match when it lies past the cut). A table row comes under its table's header
 * row, with the other rows of the table that match as well (up to 3 rows, in table order); the
 * delimiter row never shows. A heading line comes with the unit after it. `headingPath` names the
 * heading of the chunk's text the unit sits under, when there is one.
 *
 * @example
 * snippetOf({ text: '| Code | Meaning |\n|:---|---|\n| E1 | ok |\n| E2 | too large |', headingPath: ['Errors'] }, ['e2'], DEFAULT_TOKENIZER).text;
 * // '| Code | Meaning |\n| E2 | too large |'
 */
export function snippetOf(chunk: Pick<Chunk, 'text' | 'headingPath'>, terms: string[], tokenizer: TokenizerOptions): Snippet {
  const { text } = chunk;
  if (isPlainParagraph(text)) {
    const paragraph = text.replace(/\s+/g, ' ').trim();
    if (paragraph.length <= SNIPPET_MAX_LENGTH) return { text: paragraph };
  }
  const units = snippetUnits(text);
  if (units.length === 0) return { text: '' };
  const match = createUnitMatcher(terms, tokenizer, SNIPPET_MAX_LENGTH - LEAD_IN);
  // One unit is the snippet whatever it holds: only where its first match is counts.
  const firstOnly = units.length === 1;
  const found = units.map((unit) => match(unit.text, firstOnly));
  let best = 0;
  found.forEach((match, index) => {
    if (isBetter(match, found[best]!)) best = index;
  });
  const unit = units[best]!;
  const snippet = unit.kind === 'row' || unit.kind === 'header' ? tableSnippet(units, found, best) : unit.kind === 'heading' ? headingSnippet(units, best) : cutAround(unit.text, found[best]!.firstOffset, SNIPPET_MAX_LENGTH);
  const headingPath = unit.under === undefined ? undefined : pathUnder(chunk.headingPath, unit.under);
  return headingPath === undefined ? { text: snippet } : { text: snippet, headingPath };
}

/** One paragraph of prose (no blank line, table, heading, code fence or second list item): the snippet is the paragraph, when short enough. */
function isPlainParagraph(text: string): boolean {
  return !/\n[ \t]*\n|\|[ \t]*:?-|^[ \t]*#|\n[ \t]*#|```|~~~|\n[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]/.test(text);
}

function isBetter(candidate: UnitMatch, best: UnitMatch): boolean {
  return candidate.distinct > best.distinct || (candidate.distinct === best.distinct && candidate.matches > best.matches);
}

/** The header row, then the best row and the rows of the same table that match as well, in table order, within the length. */
function tableSnippet(units: SnippetUnit[], found: UnitMatch[], best: number): string {
  const chosen = units[best]!;
  const header = cutAround(chosen.header ?? '', 0, Math.floor(SNIPPET_MAX_LENGTH * HEADER_SHARE));
  const budget = SNIPPET_MAX_LENGTH - header.length - 1;
  if (chosen.kind === 'header') {
    const first = units[best + 1];
    return first?.kind === 'row' && first.table === chosen.table ? `${header}\n${cutAround(first.text, 0, budget)}` : header;
  }
  const bar = Math.max(1, Math.ceil(found[best]!.distinct / 2));
  const others = units
    .map((unit, index) => ({ unit, index, match: found[index]! }))
    .filter(({ unit, index, match }) => index !== best && unit.kind === 'row' && unit.table === chosen.table && match.distinct >= bar)
    .sort((a, b) => b.match.distinct - a.match.distinct || b.match.matches - a.match.matches || a.index - b.index);
  const rows = [{ index: best, text: cutAround(chosen.text, found[best]!.firstOffset, budget) }];
  let length = rows[0]!.text.length;
  for (const other of others) {
    if (rows.length >= MAX_ROWS) break;
    if (length + 1 + other.unit.text.length > budget) continue;
    rows.push({ index: other.index, text: other.unit.text });
    length += 1 + other.unit.text.length;
  }
  return [header, ...rows.sort((a, b) => a.index - b.index).map((row) => row.text)].join('\n');
}

/** A heading line with the unit it introduces. */
function headingSnippet(units: SnippetUnit[], best: number): string {
  const heading = units[best]!;
  const next = units[best + 1];
  if (next === undefined || next.kind === 'heading') return cutAround(heading.text, 0, SNIPPET_MAX_LENGTH);
  const body = next.kind === 'row' || next.kind === 'header' ? `${next.header ?? ''}${next.kind === 'row' ? `\n${next.text}` : ''}` : next.text;
  return cutAround(`${heading.text}\n${body}`, 0, SNIPPET_MAX_LENGTH);
}

/**
 * The heading path of a unit under `heading`, a heading line of depth d of a chunk whose path is
 * `headingPath` (the title, then one heading per level from \`##\`): the path's first d - 1
 * entries, then that heading; undefined when that is the chunk's own path.
 *
 * @example
 * pathUnder(['Tasks', 'helpers', 'helpers.abortSignal'], { depth: 3, text: 'helpers.addJob()' }); // ['Tasks', 'helpers', 'helpers.addJob()']
 */
export function pathUnder(headingPath: readonly string[], heading: TextHeading): string[] | undefined {
  const kept = Math.min(Math.max(1, heading.depth - 1), headingPath.length);
  const path = [...headingPath.slice(0, kept), heading.text];
  return path.length === headingPath.length && path.every((entry, index) => entry === headingPath[index]) ? undefined : path;
}

/**
 * Cuts `text` to at most `max` characters at word boundaries, keeping the character at `focus`
 * inside the window, with "…" where something was left out.
 *
 * @example
 * cutAround('one two three', 0, 8) // 'one two…'
 */
export function cutAround(text: string, focus: number, max: number): string {
  if (text.length <= max) return text;
  let start = 0;
  if (focus > max - LEAD_IN && scriptAt(text, focus) !== OTHER_SCRIPT) {
    // Text without spaces: from the clause the lead-in falls in (any character is a boundary).
    const from = focus - LEAD_IN;
    const clause = Math.max(...[...CLAUSE_ENDS].map((end) => text.lastIndexOf(end, focus - 1)));
    start = clause >= from ? clause + 1 : from;
  } else if (focus > max - LEAD_IN) {
    const boundary = text.lastIndexOf(' ', Math.max(0, focus - LEAD_IN));
    start = boundary <= 0 ? 0 : boundary + 1;
  }
  const prefix = start > 0 ? '…' : '';
  const rest = text.slice(start);
  const budget = max - prefix.length;
  if (rest.length <= budget) return prefix + rest;
  return `${prefix}${cutAtWord(rest, budget - 1)}…`;
}

/** The longest prefix of `text` of at most `max` characters ending before a space (hard cut for one huge word). */
function cutAtWord(text: string, max: number): string {
  const space = text.lastIndexOf(' ', max);
  // Text without spaces may be cut between any two characters.
  if (space > 0 && scriptAt(text, max - 1) === OTHER_SCRIPT) return text.slice(0, space).trimEnd();
  const hard = text.slice(0, max);
  const last = hard.charCodeAt(hard.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? hard.slice(0, -1) : hard;
}

/** A hit's own (hidden) record of its snippet: what to make it from, then the snippet once made. */
const SNIPPET = Symbol('atlas.snippet');

interface SnippetSource {
  terms: string[];
  tokenizer: TokenizerOptions;
}

type LazyHit = Hit & { [SNIPPET]: SnippetSource | Snippet };

/**
 * `hit` with `snippet` and `snippetHeadingPath` as enumerable properties made from its text on
 * first read (see {@link snippetOf}): callers that skip hits (a search session dropping passages
 * it already showed) never pay for their snippets. Every hit shares the same getters, which find
 * the query's terms on the hit itself: a getter closed over each hit would give each its own
 * hidden class, and those classes (never in the young generation) kept every hit of a search
 * alive through the next minor garbage collections: about 2 MB copied by each of them, pauses of
 * 2-4 ms every 100 searches at 10k chunks.
 *
 * @example
 * const hit = withLazySnippet({ ...chunk, score: 7.2 }, ['retry'], DEFAULT_TOKENIZER);
 * hit.snippet; // made now
 */
export function withLazySnippet(hit: Omit<Hit, 'snippet' | 'snippetHeadingPath'>, terms: string[], tokenizer: TokenizerOptions): Hit {
  Object.defineProperty(hit, SNIPPET, { value: { terms, tokenizer } satisfies SnippetSource, writable: true });
  Object.defineProperty(hit, 'snippet', { enumerable: true, get: readSnippet });
  return Object.defineProperty(hit, 'snippetHeadingPath', { enumerable: true, get: readSnippetHeadingPath }) as Hit;
}

function snippetRecord(hit: LazyHit): Snippet {
  const source = hit[SNIPPET];
  if (!('terms' in source)) return source;
  return (hit[SNIPPET] = snippetOf(hit, source.terms, source.tokenizer));
}

function readSnippet(this: LazyHit): string {
  return snippetRecord(this).text;
}

function readSnippetHeadingPath(this: LazyHit): string[] | undefined {
  return snippetRecord(this).headingPath;
}
