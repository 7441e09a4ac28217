// How a quote is read against the text a run was shown: both normalised (normalize), and its
// elision marks read as elisions or as the docs' own text (createQuoteReading, quoteParts), each
// fragment of an elision of substance (hasSubstance) and most of the quote.
import { OTHER_SCRIPT, scriptAt } from '../../text/scripts.ts';

/**
 * What each fragment of an elided quote (`a ... b`) needs to count as quoted text: at least
 * this many words (runs of letters or digits), or {@link MIN_FRAGMENT_CHARS} letters and digits
 * (one long identifier such as `PayloadTooLargeError`). Three words make a phrase that can
 * carry a claim ("retried 25 times"); one or two short words ("the", "e") match almost anywhere,
 * so a chain of them "verifies" against any long passage.
 */
export const MIN_FRAGMENT_WORDS = 3;
/** Letters and digits that make a fragment of substance on their own (see {@link MIN_FRAGMENT_WORDS}). */
export const MIN_FRAGMENT_CHARS = 15;
/**
 * Share of an elided quote's characters (spaces aside) that must be quoted text rather than
 * elision marks: a quote that is mostly "..." says little about what it cites.
 */
export const MIN_QUOTED_SHARE = 0.5;

/**
 * Whether a fragment of an elided quote is of substance on its own: {@link MIN_FRAGMENT_WORDS}
 * words or {@link MIN_FRAGMENT_CHARS} letters and digits.
 *
 * @example
 * hasSubstance('**Experimental**') // false
 * hasSubstance('retried 25 times') // true
 */
export function hasSubstance(fragment: string): boolean {
  const words = fragment.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length >= MIN_FRAGMENT_WORDS || words.join('').length >= MIN_FRAGMENT_CHARS;
}

/** Characters of `text` that are not whitespace. */
export function nonSpaceLength(text: string): number {
  return text.replace(/\s+/g, '').length;
}

/** `text` without the spaces and punctuation (`.,;:`) at its ends. */
function trimEdges(text: string): string {
  return text.replace(/^[\s.,;:]+|[\s.,;:]+$/g, '');
}

/** What reads as an elision mark in a quote: "...", "…" or "[...]". */
const ELISION_MARK = /\[\.\.\.\]|\.\.\.|…/g;

/**
 * Most marks one fragment may hold as the docs' own text: `f(a, ...)` holds one; the bound keeps
 * reading a quote with many marks linear in their number.
 */
const MAX_LITERAL_MARKS = 8;

/**
 * Whether the fragments of an elided quote must each be of substance and most of the quote
 * (`strict`, what verifies), or need only occur in order (`loose`, to name the rule a quote breaks).
 */
export type ElisionRules = 'strict' | 'loose';

/** A quote prepared for matching against normalised shown texts (see {@link createQuoteReading}). */
export interface QuoteReading {
  /** The quote's fragments as they occur in order in `haystack`, or undefined when no reading does. */
  within(haystack: string, rules: ElisionRules): string[] | undefined;
}

/**
 * Reads a quote against shown texts. Each elision mark is either an elision or the docs' own
 * text (`client.run_flow("nightly_report", ...)`): a quote found whole needs no elision rules;
 * otherwise the marks that elide are chosen so the fragments between them are each of substance
 * ({@link hasSubstance}), occur in order and are most of the quote ({@link MIN_QUOTED_SHARE}).
 * A dynamic program over the marks finds such a choice when one exists: after each mark it keeps
 * the earliest end in the text that any valid reading of the quote up to there reaches.
 */
export function createQuoteReading(quote: string): QuoteReading {
  const marks = [...quote.matchAll(ELISION_MARK)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
  // Fragment (from, to) is the quote's text between mark `from` and mark `to` (0: the quote's start, last: its end).
  const last = marks.length + 1;
  const cache = new Map<number, string>();
  const fragment = (from: number, to: number) => {
    const key = from * (last + 1) + to;
    let text = cache.get(key);
    if (text === undefined) {
      const start = from === 0 ? 0 : marks[from - 1]!.end;
      const end = to === last ? quote.length : marks[to - 1]!.start;
      cache.set(key, (text = trimEdges(normalize(quote.slice(start, end)).text)));
    }
    return text;
  };
  const whole = fragment(0, last);
  const quoteLength = nonSpaceLength(normalize(quote).text);
  return {
    within(haystack, rules) {
      const strict = rules === 'strict';
      if (haystack.includes(whole)) return [whole];
      if (marks.length === 0) return undefined;
      const reached: Array<{ end: number; from: number } | undefined> = [{ end: 0, from: -1 }];
      for (let to = 1; to <= last; to++) {
        for (let from = Math.max(0, to - 1 - MAX_LITERAL_MARKS); from < to; from++) {
          const before = reached[from];
          if (before === undefined || (from === 0 && to === last)) continue;
          const text = fragment(from, to);
          let end = before.end;
          if (text !== '') {
            const at = !strict || hasSubstance(text) ? haystack.indexOf(text, before.end) : -1;
            if (at < 0) continue;
            end = at + text.length;
          }
          if (reached[to] === undefined || end < reached[to]!.end) reached[to] = { end, from };
        }
      }
      if (reached[last] === undefined) return undefined;
      const fragments: string[] = [];
      for (let to = last; to > 0; to = reached[to]!.from) {
        const text = fragment(reached[to]!.from, to);
        if (text !== '') fragments.unshift(text);
      }
      const quoted = fragments.reduce((sum, text) => sum + nonSpaceLength(text), 0);
      return !strict || quoted / Math.max(1, quoteLength) >= MIN_QUOTED_SHARE ? fragments : undefined;
    },
  };
}

/** The normalised pieces of a quote, every "...", "…" or "[...]" read as an elision. */
export function quoteParts(quote: string): string[] {
  return quote
    .split(ELISION_MARK)
    .map((part) => trimEdges(normalize(part).text))
    .filter((part) => part.length > 0);
}

/** What stands for a link's target in {@link normalize} (a character no text holds). */
const LINK_TARGET = '\u0000';

/** Punctuation of Chinese and Japanese text read as its ASCII kin (full-width forms are folded by code). */
const CJK_PUNCTUATION: Readonly<Record<string, string>> = { '、': ',', '。': '.', '「': '"', '」': '"', '『': '"', '』': '"' };

/**
 * Lowercases, straightens quotes, drops markdown marks (emphasis, code, table pipes, links'
 * targets) and collapses whitespace, keeping for each output character its input offset.
 * Full-width forms (`，：（`) read as ASCII and `。、「」` as `.,""`, and a space beside a
 * character of text written without spaces is dropped (`使用 Redis` is `使用Redis`), so a quote
 * of Chinese or Japanese verifies however its punctuation and spacing were retyped.
 */
export function normalize(input: string): { text: string; offsets: number[] } {
  // A link is its label: the target's characters are kept as LINK_TARGET (for the offsets) and
  // read as nothing, not as a space: "(a [`dict`](stdtypes.html#dict))" reads "(a dict)".
  const source = input.replace(/\[([^\]]*)\]\([^)]*\)/g, (match, label: string) => label + LINK_TARGET.repeat(match.length - label.length));
  let text = '';
  const offsets: number[] = [];
  let pendingSpace = false;
  for (let index = 0; index < source.length; index++) {
    let char = source[index] ?? '';
    if (char === LINK_TARGET) continue;
    const code = char.charCodeAt(0);
    if (code >= 0xff01 && code <= 0xff5e) char = String.fromCharCode(code - 0xfee0);
    else if (code >= 0x3001) char = CJK_PUNCTUATION[char] ?? char;
    if ('*_`~|#>'.includes(char)) char = char === '|' || char === '#' || char === '>' ? ' ' : '';
    else if ('\u2018\u2019'.includes(char)) char = "'";
    else if ('\u201c\u201d'.includes(char)) char = '"';
    if (char === '') continue;
    if (/\s/.test(char)) {
      pendingSpace = text.length > 0;
      continue;
    }
    if (pendingSpace && (scriptAt(source, index) !== OTHER_SCRIPT || scriptAt(text, text.length - 1) !== OTHER_SCRIPT)) pendingSpace = false;
    if (pendingSpace) {
      text += ' ';
      offsets.push(index);
      pendingSpace = false;
    }
    text += char.toLowerCase();
    offsets.push(index);
  }
  return { text, offsets };
}
