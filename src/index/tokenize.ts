/**
 * Pure text-to-terms functions shared by ingest (what goes into the index), query building
 * (what is searched) and snippets (which paragraph matched best).
 *
 * The SQLite index tokenises text with FTS5 `unicode61` (punctuation splits words), so
 * `max_payload_kb` is indexed as `max payload kb` and `PayloadTooLarge` as `payloadtoolarge`.
 * Identifier expansions add what that loses: the whole identifier with its separators removed
 * (`maxpayloadkb`, `orb1202`) and the parts of CamelCase words (`payload too large`), so an
 * identifier is found whether it is typed exactly, without separators, or as words.
 */

/** How text becomes searchable terms. Fixed per index (stored in it) because ingest depends on it. */
export interface TokenizerOptions {
  /** Porter stemming: `retries` also finds `retry`. */
  porter: boolean;
  /** Identifier expansions (see {@link identifierExpansions}) at ingest and in queries. */
  identifiers: boolean;
}

/**
 * The default tokenizer: stemming and identifier expansions on.
 *
 * @example
 * createSqliteIndex({ path: ':memory:', tokenizer: { ...DEFAULT_TOKENIZER, porter: false } });
 */
export const DEFAULT_TOKENIZER: Readonly<TokenizerOptions> = Object.freeze({
  porter: true,
  identifiers: true,
});

/** Letters, digits and combining marks: what FTS5 unicode61 keeps inside a token. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** An identifier-like run: words joined by `_`, `-`, `.`, `:` or `/` (`quartz.scheduler.idleWaitTime`); {@link searchTerms} reads text run by run. */
export const IDENTIFIER_RUN = /[\p{L}\p{N}\p{M}_]+(?:[-.:/][\p{L}\p{N}\p{M}_]+)*/gu;
/** Sub-words of one segment: `HTTPServer` -> HTTP Server, `idleWaitTime` -> idle Wait Time, `ORB1202` -> ORB 1202. */
const SUBWORD = /\p{Lu}+(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{N}+|[\p{L}\p{M}]+/gu;
const NAMESPACE_SEPARATOR = /[.:/]/;
/** Runs that may expand: separators, digits, or an upper-case letter (checked on runs already lower-case-compared). */
const MAY_EXPAND = /[-_.:/\p{N}]/u;

/**
 * Runs that provably expand to nothing: one segment of one sub-word, i.e. a lower-case word,
 * maybe capitalised (`retry`, `Retry`), an all-capitals word (`NASA`) or a number (`1995`).
 * Most runs of prose are one of these; the ASCII form is tested first because it is cheaper.
 */
const NEVER_EXPANDS_ASCII = /^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/;
const NEVER_EXPANDS = /^(?:\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+|\p{N}+)$/u;

/** A plain lower-case word: its own only term, no expansion (the common case, kept fast). */
function isPlainWord(run: string, lower: string): boolean {
  return run === lower && !MAY_EXPAND.test(run);
}

/**
 * Lower-cased words as FTS5 unicode61 sees them (punctuation, `_` and spaces split).
 *
 * @example
 * words('See max_payload_kb.') // ['see', 'max', 'payload', 'kb']
 */
export function words(text: string): string[] {
  return Array.from(text.matchAll(WORD), (match) => match[0].toLowerCase());
}

/**
 * Splits one identifier segment into CamelCase / letter-digit parts, lower-cased.
 *
 * @example
 * splitCamelCase('PayloadTooLarge') // ['payload', 'too', 'large']
 * splitCamelCase('HTTPServer2')     // ['http', 'server', '2']
 */
export function splitCamelCase(segment: string): string[] {
  return Array.from(segment.matchAll(SUBWORD), (match) => match[0].toLowerCase());
}

/**
 * The identifier with separators removed, lower-cased: one token for the whole identifier.
 *
 * @example
 * normalizeIdentifier('ORB-1202') // 'orb1202'
 */
export function normalizeIdentifier(identifier: string): string {
  return words(identifier).join('');
}

/**
 * Extra terms for one identifier-like run, beyond its plain {@link words}: the whole identifier
 * normalised (when it has separators), the dotted/slashed suffixes (`scheduler.idleWaitTime`),
 * and the CamelCase parts of segments that have them. Plain words expand to nothing.
 *
 * @example
 * expandIdentifier('quartz.scheduler.idleWaitTime')
 * // ['quartzscheduleridlewaittime', 'scheduleridlewaittime', 'idle', 'wait', 'time']
 */
export function expandIdentifier(identifier: string): string[] {
  const segments = words(identifier);
  const rawSegments = identifier.match(WORD) ?? [];
  const expansions: string[] = [];
  if (segments.length > 1) {
    expansions.push(segments.join(''));
    if (NAMESPACE_SEPARATOR.test(identifier)) {
      const pathParts = identifier.split(NAMESPACE_SEPARATOR).map(normalizeIdentifier);
      for (let start = 1; start < pathParts.length - 1; start += 1) {
        expansions.push(pathParts.slice(start).join(''));
      }
    }
  }
  for (const segment of rawSegments) {
    const parts = splitCamelCase(segment);
    if (parts.length > 1) expansions.push(...parts);
  }
  return expansions;
}

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
    if (pieceMayExpand(text, pieceStart, pieceEnd)) addRunExpansions(text.slice(pieceStart, pieceEnd), seen, cache);
    candidates.lastIndex = pieceEnd;
  }
  return [...seen];
}

/**
 * Where a piece may expand (see {@link mayExpand}): `_`, a non-ASCII character (the case of a
 * non-ASCII letter is only known from its class), a digit beside a letter, a lower-case letter
 * before an upper-case one, two upper-case letters before a lower-case one, or a separator
 * between word characters. A superset, tested by the regular expression engine, which skips the
 * prose between matches 2-3 times faster than a loop over its characters; each piece with a
 * match is then read character by character ({@link pieceMayExpand}).
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

/** {@link IDENTIFIER_RUN} for {@link addRunExpansions} alone (a pattern of its own: its lastIndex is state). */
const PIECE_RUNS = new RegExp(IDENTIFIER_RUN);

const SPACE = 32;
const NEWLINE = 10;
const TAB = 9;
const RETURN = 13;
/** Character classes of {@link mayExpand}. */
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const UNDERSCORE = 4;
const SEPARATOR = 5;
const NON_ASCII = 6;
const ASCII_CLASS = (() => {
  const classes = new Uint8Array(128);
  for (let code = 0; code < 128; code += 1) {
    const char = String.fromCharCode(code);
    if (char >= 'a' && char <= 'z') classes[code] = LOWER;
    else if (char >= 'A' && char <= 'Z') classes[code] = UPPER;
    else if (char >= '0' && char <= '9') classes[code] = DIGIT;
    else if (char === '_') classes[code] = UNDERSCORE;
    else if ('-.:/'.includes(char)) classes[code] = SEPARATOR;
  }
  return classes;
})();

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

/** One searchable term and where the identifier-like run it came from starts in the text. */
export interface PositionedTerm {
  term: string;
  offset: number;
}

/**
 * Every term of a text in order (with repeats): the plain words of each identifier-like run,
 * followed by its expansions when `identifiers` is on. Queries and snippets both use it.
 *
 * @example
 * searchTerms('ORB-1202 fails', { porter: true, identifiers: true }).map((t) => t.term)
 * // ['orb', '1202', 'orb1202', 'fails']
 */
export function searchTerms(text: string, options: TokenizerOptions): PositionedTerm[] {
  const terms: PositionedTerm[] = [];
  for (const match of text.matchAll(IDENTIFIER_RUN)) {
    const offset = match.index;
    const lower = match[0].toLowerCase();
    if (isPlainWord(match[0], lower)) {
      terms.push({ term: lower, offset });
      continue;
    }
    for (const term of words(match[0])) terms.push({ term, offset });
    if (options.identifiers) {
      for (const term of expandIdentifier(match[0])) terms.push({ term, offset });
    }
  }
  return terms;
}

/**
 * A light suffix-stripping stem used only to compare terms in TypeScript (snippets) when the
 * index uses Porter stemming; the index itself stems with FTS5's Porter tokenizer.
 *
 * @example
 * lightStem('retries') // 'retri'
 */
export function lightStem(term: string): string {
  let stem = term;
  for (const suffix of ['ing', 'ies', 'ied', 'es', 'ed', 'ly', 's']) {
    if (suffix === 's' && stem.endsWith('ss')) break;
    if (stem.endsWith(suffix) && stem.length - suffix.length >= 3) {
      stem = suffix === 'ies' || suffix === 'ied' ? `${stem.slice(0, -3)}i` : stem.slice(0, -suffix.length);
      break;
    }
  }
  if (stem.length > 3 && stem.endsWith('y')) return `${stem.slice(0, -1)}i`;
  if (stem.length > 3 && stem.endsWith('e')) return stem.slice(0, -1);
  return stem;
}

/** A small English stopword list, dropped from natural-language queries. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing down during each few for from further ' +
    'had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which ' +
    'while who whom why will with would you your yours yourself yourselves'
  ).split(' '),
);
