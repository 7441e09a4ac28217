// The identifier expansions of a text (`max_payload_kb` -> `maxpayloadkb`, `PayloadTooLarge` ->
// `payload too large`): what the index stores in each chunk's `idents` column. Reading a whole
// chunk's prose for the few pieces that expand is its own concern, apart from the tokenizer's
// rules in tokenize.ts (expandIdentifier says what one run expands to).
import { expandIdentifier, IDENTIFIER_RUN, isPlainWord } from './tokenize.ts';
import { SPACELESS_CHAR, splitSpaceless } from '../../text/scripts.ts';
import { ASCII_CLASS, DIGIT, isAscii, LOWER, OTHER, SEPARATOR, UNDERSCORE, UPPER } from './ascii-classes.ts';

/**
 * Runs that provably expand to nothing: one segment of one sub-word, i.e. a lower-case word,
 * maybe capitalised (`retry`, `Retry`), an all-capitals word (`NASA`) or a number (`1995`).
 * Most runs of prose are one of these; the ASCII form is tested first because it is cheaper.
 */
const NEVER_EXPANDS_ASCII = /^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/;
const NEVER_EXPANDS = /^(?:\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+|\p{N}+)$/u;

/**
 * Identifier expansions of a whole text, each term once, in order of first appearance: what the
 * index stores in its `idents` column. `cache`, when given, keeps each run's expansions for the
 * next texts (one ingest owns it; a corpus repeats few distinct identifiers many times).
 *
 * Most text is prose whose runs expand to nothing, so only the whitespace-separated pieces
 * that may hold an expanding run ({@link MAY_EXPAND_NEARBY}, then {@link mayExpand}) are read
 * with {@link IDENTIFIER_RUN}. The result is the same as reading every run. On the 100k bench
 * chunks: 0.41 s, against 0.67 s for a loop over every character (a hand-written loop that
 * skips quiet characters through a table took 0.45 s).
 *
 * @example
 * identifierExpansions('Raise max_payload_kb on PayloadTooLarge.')
 * // ['maxpayloadkb', 'payload', 'too', 'large']
 */
export function identifierExpansions(text: string, cache?: Map<string, string[]>): string[] {
  const seen = new Set<string>();
  // One shared global pattern, its lastIndex reset: nothing called in the loop reads it again.
  const candidates = MAY_EXPAND_NEARBY;
  candidates.lastIndex = 0;
  for (let match = candidates.exec(text); match !== null; match = candidates.exec(text)) {
    // The whitespace-separated piece around the match, read character by character.
    let pieceStart = match.index;
    while (pieceStart > 0 && !isPieceBreak(text.charCodeAt(pieceStart - 1))) pieceStart -= 1;
    let pieceEnd = match.index + match[0].length;
    while (pieceEnd < text.length && !isPieceBreak(text.charCodeAt(pieceEnd))) pieceEnd += 1;
    if (pieceMayExpand(text, pieceStart, pieceEnd)) {
      if (isAscii(text, pieceStart, pieceEnd)) addAsciiRunExpansions(text, pieceStart, pieceEnd, seen, cache);
      else addRunExpansions(text.slice(pieceStart, pieceEnd), seen, cache);
    }
    candidates.lastIndex = pieceEnd;
  }
  return [...seen];
}

/**
 * Where a piece may expand (see {@link mayExpand}): `_`, a non-ASCII character (the case of a
 * non-ASCII letter is only known from its class), a digit beside a letter, a lower-case letter
 * before an upper-case one, two upper-case letters before a lower-case one, or a separator
 * between word characters. A superset, tested by the regular expression engine, which skips the
 * prose between matches faster than a loop over its characters (see {@link identifierExpansions});
 * each piece with a match is then read character by character ({@link pieceMayExpand}).
 */
const MAY_EXPAND_NEARBY = /[^\x00-\x7f]|_|[a-z](?:[0-9A-Z]|[-.:/][A-Za-z0-9])|[A-Z](?:[0-9]|[A-Z][a-z]|[-.:/][A-Za-z0-9])|[0-9](?:[A-Za-z]|[-.:/][A-Za-z0-9])/g;

function isPieceBreak(code: number): boolean {
  return code === SPACE || code === NEWLINE || code === TAB || code === RETURN;
}

/** Whether text[start..end), a piece with no whitespace, holds a run that may expand. */
function pieceMayExpand(text: string, start: number, end: number): boolean {
  // Classes of the two characters before the current one (OTHER at the piece's start).
  let previous = OTHER;
  let beforePrevious = OTHER;
  for (let position = start; position < end; position += 1) {
    const code = text.charCodeAt(position);
    const kind = code < 128 ? ASCII_CLASS[code]! : nonAsciiClass(code);
    if (mayExpand(beforePrevious, previous, kind)) return true;
    beforePrevious = previous;
    previous = kind;
  }
  return false;
}

/** Expansions of every identifier-like run of a piece of text, added to `seen` in order. */
function addRunExpansions(piece: string, seen: Set<string>, cache: Map<string, string[]> | undefined): void {
  // An identifier inside Chinese prose (`设置max_payload_kb为10`) is read apart from the prose around it.
  if (SPACELESS_CHAR.test(piece)) return splitSpaceless(piece, (other) => addRunExpansions(other, seen, cache), () => {});
  const runs = PIECE_RUNS;
  runs.lastIndex = 0;
  for (let match = runs.exec(piece); match !== null; match = runs.exec(piece)) {
    const run = match[0];
    if (NEVER_EXPANDS_ASCII.test(run) || NEVER_EXPANDS.test(run) || isPlainWord(run, run.toLowerCase())) continue;
    let terms = cache?.get(run);
    if (terms === undefined) {
      terms = expandIdentifier(run);
      cache?.set(run, terms);
    }
    for (const term of terms) seen.add(term);
  }
}

/**
 * {@link addRunExpansions} of the ASCII piece text[start..end), read character by character: the
 * runs {@link IDENTIFIER_RUN} would match (`[A-Za-z0-9_]+` joined by single separators), making a
 * string only of a run that may expand. Most runs of a piece that may expand do not (`os`
 * and `path` of `[os.path](os.path.html)`), and in ASCII a run expands to nothing exactly when
 * {@link NEVER_EXPANDS_ASCII} matches it (a lower-case run without separators or digits is one
 * of those). The Python docs' 15,121 chunks (177,000 pieces that may expand, 316,000 runs in
 * them), one thread, a new cache: 0.72-0.78 s before, 0.50-0.53 s with this and the ASCII path
 * of words and splitCamelCase (tokenize.ts).
 */
function addAsciiRunExpansions(text: string, start: number, end: number, seen: Set<string>, cache: Map<string, string[]> | undefined): void {
  let position = start;
  while (position < end) {
    if (!isRunChar(text.charCodeAt(position))) {
      position += 1;
      continue;
    }
    const runStart = position;
    let joined = false;
    while (position < end && isRunChar(text.charCodeAt(position))) position += 1;
    while (position + 1 < end && ASCII_CLASS[text.charCodeAt(position)] === SEPARATOR && isRunChar(text.charCodeAt(position + 1))) {
      joined = true;
      position += 1;
      while (position < end && isRunChar(text.charCodeAt(position))) position += 1;
    }
    if (!joined && neverExpandsAscii(text, runStart, position)) continue;
    const run = text.slice(runStart, position);
    let terms = cache?.get(run);
    if (terms === undefined) {
      terms = expandIdentifier(run);
      cache?.set(run, terms);
    }
    for (const term of terms) seen.add(term);
  }
}

/** A character of an ASCII run: a letter, a digit or `_` (code < 128). */
function isRunChar(code: number): boolean {
  const kind = ASCII_CLASS[code]!;
  return kind >= LOWER && kind <= UNDERSCORE;
}

/** {@link NEVER_EXPANDS_ASCII} of the run text[start..end) of letters, digits and `_`: `retry`, `Retry`, `NASA` or `1995`. */
function neverExpandsAscii(text: string, start: number, end: number): boolean {
  const first = ASCII_CLASS[text.charCodeAt(start)]!;
  if (first === UNDERSCORE) return false;
  // All of one class (digits, capitals, lower-case letters), or one capital then lower-case letters.
  const rest = end - start > 1 ? ASCII_CLASS[text.charCodeAt(start + 1)]! : first;
  if (first !== rest && !(first === UPPER && rest === LOWER)) return false;
  for (let position = start + 2; position < end; position += 1) if (ASCII_CLASS[text.charCodeAt(position)] !== rest) return false;
  return true;
}

/** {@link IDENTIFIER_RUN} for {@link addRunExpansions} alone (a pattern of its own: its lastIndex is state). */
const PIECE_RUNS = new RegExp(IDENTIFIER_RUN);

const SPACE = 32;
const NEWLINE = 10;
const TAB = 9;
const RETURN = 13;
/** Character classes of {@link mayExpand}: those of ascii-classes.ts, and one for a non-ASCII character other than a letter. */
const NON_ASCII = 6;

/** A non-ASCII letter's case (so `café` and `Straße` stay prose), else {@link NON_ASCII}. */
function nonAsciiClass(code: number): number {
  if (code >= 0xd800 && code <= 0xdfff) return NON_ASCII;
  const char = String.fromCharCode(code);
  if (LOWER_LETTER.test(char)) return LOWER;
  return UPPER_LETTER.test(char) ? UPPER : NON_ASCII;
}
const LOWER_LETTER = /^\p{Ll}$/u;
const UPPER_LETTER = /^\p{Lu}$/u;

/**
 * Whether the characters read so far (the last three classes) show that their piece may hold a
 * run that expands. A run expands only if it has several segments (a `_`, or a separator between
 * word characters), or a segment that mixes digits and letters, or whose case is neither
 * `Word`, `word` nor `WORD` (a lower-case letter then a capital, or two capitals then a lower-case
 * letter): each leaves one of these marks. A non-ASCII character other than a lower- or
 * upper-case letter (a mark, a digit, another letter) counts as a mark, so such pieces take the
 * exact path; a separator is checked when the character after it is read.
 */
function mayExpand(beforePrevious: number, previous: number, current: number): boolean {
  if (current === NON_ASCII || current === UNDERSCORE) return true;
  const word = current === LOWER || current === UPPER || current === DIGIT;
  if (previous === SEPARATOR) return word && beforePrevious >= LOWER && beforePrevious <= UNDERSCORE;
  if (current === DIGIT) return previous === LOWER || previous === UPPER;
  if (previous === DIGIT) return current === LOWER || current === UPPER;
  if (current === UPPER) return previous === LOWER;
  return current === LOWER && previous === UPPER && beforePrevious === UPPER;
}
