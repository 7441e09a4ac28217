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
import { runWords, SPACELESS_CHAR, splitSpaceless } from '../../text/scripts.ts';
import { DIGIT, isAscii, LOWER, OTHER, UPPER } from './ascii-classes.ts';

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

/** A plain lower-case word: its own only term, no expansion (the common case, kept fast). */
export function isPlainWord(run: string, lower: string): boolean {
  return run === lower && !MAY_EXPAND.test(run);
}

/**
 * Lower-cased words as FTS5 unicode61 sees them (punctuation, `_` and spaces split).
 *
 * @example
 * words('See max_payload_kb.') // ['see', 'max', 'payload', 'kb']
 */
export function words(text: string): string[] {
  if (isAscii(text)) return asciiParts(text, false);
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
  if (isAscii(segment)) return asciiParts(segment, true);
  return Array.from(segment.matchAll(SUBWORD), (match) => match[0].toLowerCase());
}

/**
 * {@link words} (`camel` false) or {@link splitCamelCase} (`camel` true) of ASCII text, without
 * the regular expressions (Unicode classes, a match object per part): in ASCII {@link WORD} is
 * `[A-Za-z0-9]+`, and {@link SUBWORD} splits such a run before a digit after a letter, before a
 * letter after a digit, before a capital after a lower-case letter, and before the last capital
 * of several followed by a lower-case letter (`HTTPServer` -> `HTTP`, `Server`).
 */
function asciiParts(text: string, camel: boolean): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let at = 0; at <= text.length; at += 1) {
    const kind = at < text.length ? asciiKind(text.charCodeAt(at)) : OTHER;
    if (kind === OTHER) {
      if (start >= 0) parts.push(text.slice(start, at).toLowerCase());
      start = -1;
      continue;
    }
    if (start < 0) {
      start = at;
      continue;
    }
    if (!camel) continue;
    const previous = asciiKind(text.charCodeAt(at - 1));
    const breaks =
      (previous === DIGIT) !== (kind === DIGIT) ||
      (previous === LOWER && kind === UPPER) ||
      (previous === UPPER && kind === UPPER && at + 1 < text.length && asciiKind(text.charCodeAt(at + 1)) === LOWER);
    if (breaks) {
      parts.push(text.slice(start, at).toLowerCase());
      start = at;
    }
  }
  return parts;
}

/** {@link LOWER} for a-z, {@link UPPER} for A-Z, {@link DIGIT} for 0-9 (ascii-classes.ts), {@link OTHER} for any other ASCII character. */
function asciiKind(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  return code >= 48 && code <= 57 ? DIGIT : OTHER;
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

/** One searchable term and where the identifier-like run it came from starts in the text. */
export interface PositionedTerm {
  term: string;
  offset: number;
}

/**
 * Every term of a text in order (with repeats): the plain words of each identifier-like run,
 * followed by its expansions when `identifiers` is on; a run of text without spaces (Chinese,
 * Japanese, Thai: text/scripts.ts) gives its bigrams or words, as the index's query tokens are.
 * Queries and snippets both use it.
 *
 * @example
 * searchTerms('ORB-1202 fails', { porter: true, identifiers: true }).map((t) => t.term)
 * // ['orb', '1202', 'orb1202', 'fails']
 */
export function searchTerms(text: string, options: TokenizerOptions): PositionedTerm[] {
  const terms: PositionedTerm[] = [];
  if (!SPACELESS_CHAR.test(text)) return addRunTerms(text, 0, options, terms);
  splitSpaceless(
    text,
    (other, offset) => addRunTerms(other, offset, options, terms),
    (run, offset) => {
      for (const word of runWords(run, false)) terms.push({ term: word.word, offset: offset + word.offset });
    },
  );
  return terms;
}

/** The terms of text with no spaceless run (see {@link searchTerms}), found at `base` of the whole text, added to `terms`. */
function addRunTerms(text: string, base: number, options: TokenizerOptions, terms: PositionedTerm[]): PositionedTerm[] {
  for (const match of text.matchAll(IDENTIFIER_RUN)) {
    const offset = base + match.index;
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
