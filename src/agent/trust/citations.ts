import { isPaged } from '../../corpus/locator.ts';
import type { Citation, DroppedCitation } from './answer.ts';
import type { EvidenceSet } from './evidence.ts';
import { OTHER_SCRIPT, scriptAt } from '../../text/scripts.ts';

/** Shortest quote (normalised characters) that can support a claim. */
export const MIN_QUOTE_CHARS = 12;

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
 * Checks each citation against the evidence the run was actually shown: the quote (whitespace,
 * case and markdown marks normalised) must occur in a text shown for a chunk of the cited doc:
 * a snippet, or one page of a section (a quote from page 2 of a long section verifies only once
 * page 2 was read). A quote may elide text with "..." (or "…", "[...]") when every fragment is
 * of substance ({@link MIN_FRAGMENT_WORDS} words or {@link MIN_FRAGMENT_CHARS} letters), the
 * fragments are most of the quote ({@link MIN_QUOTED_SHARE}) and they occur in order within one
 * shown text. Any "..." may also be the docs' own text (`addJob(...)`): a quote found as written
 * verifies whole, and an elided quote whose fragments hold such text verifies when some choice
 * of which marks elide meets those rules. Returns the kept citations, located in their source,
 * and the dropped ones with the reason.
 *
 * @example
 * const { kept, dropped } = verifyCitations([{ doc_id: 'flows', quote: 'Steps run in order.' }], evidence);
 * verifyCitations([{ doc_id: 'flows', quote: 'S ... e ... t' }], evidence).dropped[0]?.reason;
 * // 'elided quote: the fragment "s" is too short to support a claim (...)'
 */
export function verifyCitations(
  citations: Array<{ doc_id: string; quote: string }>,
  evidence: EvidenceSet,
): { kept: Citation[]; dropped: DroppedCitation[] } {
  const kept: Citation[] = [];
  const dropped: DroppedCitation[] = [];
  const seen = new Set<string>();
  // Each shown text is normalised once per check, not once per citation.
  const normalized = new Map<string, string>();
  const normalizedOf = (text: string) => {
    let value = normalized.get(text);
    if (value === undefined) normalized.set(text, (value = normalize(text).text));
    return value;
  };
  for (const { doc_id: docId, quote } of citations) {
    const parts = quoteParts(quote);
    const key = `${docId}\u0000${parts.join('\u0000')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const drop = (reason: string) => dropped.push({ docId, quote, reason });
    if (parts.join(' ').length < MIN_QUOTE_CHARS) {
      drop(`quote too short to support a claim (under ${MIN_QUOTE_CHARS} characters)`);
      continue;
    }
    const reading = createQuoteReading(quote);
    const ofDoc = (itemDocId: string) => itemDocId === docId;
    const found = findQuote(reading, evidence, normalizedOf, ofDoc, 'strict');
    if (found) {
      kept.push({ ...found.located, quote });
      continue;
    }
    // Found in order only when the elision rules are waived: the reason is the rule it breaks.
    const loose = findQuote(reading, evidence, normalizedOf, ofDoc, 'loose');
    const problem = loose && (elisionProblem(quote, loose.fragments) ?? elisionProblem(quote, parts));
    if (problem) {
      drop(problem);
      continue;
    }
    const elsewhere = findQuote(reading, evidence, normalizedOf, (itemDocId) => itemDocId !== docId, 'strict');
    if (elsewhere) drop(`quote is from doc "${elsewhere.located.docId}", not "${docId}"`);
    else if (!evidence.hasDoc(docId)) drop(`doc "${docId}" was never seen or read in this run`);
    else if (parts.length > 1) drop(`the fragments of the elided quote do not occur in order within one passage of "${docId}" that this run saw or read`);
    else drop(`quote does not occur in the passages of "${docId}" that this run saw or read`);
  }
  return { kept, dropped };
}

/**
 * Whether `quote` is text of `text` as the check reads quotes (normalised, elisions by the same
 * rules), each of its lines on its own: a quote of a table's header and one of its rows (shown
 * together in a snippet) is text of the chunk when both lines are. Returns the source lines of
 * the quote within a chunk whose text ends at `endLine`, or undefined when it is not there.
 *
 * @example
 * quoteLinesIn('Leases last sixty seconds.', chunk.text, chunk.endLine); // { startLine: 12, endLine: 12 }
 */
export function quoteLinesIn(quote: string, text: string, endLine: number): { startLine: number; endLine: number } | undefined {
  const haystack = normalize(text).text;
  const fragments: string[] = [];
  for (const line of quote.split('\n').filter((part) => part.trim() !== '')) {
    const found = createQuoteReading(line).within(haystack, 'strict');
    if (found === undefined) return undefined;
    fragments.push(...found);
  }
  if (fragments.length === 0) return undefined;
  const first = locateLines(text, [fragments[0]!], endLine);
  const last = locateLines(text, [fragments.at(-1)!], endLine);
  if (first === undefined || last === undefined) return undefined;
  return { startLine: Math.min(first.startLine, last.startLine), endLine: Math.max(first.endLine, last.endLine) };
}

/**
 * Why an elided quote cannot support a claim, or undefined when its fragments are of substance
 * and are most of the quote.
 */
function elisionProblem(quote: string, parts: string[]): string | undefined {
  const thin = parts.find((part) => !hasSubstance(part));
  if (thin !== undefined) {
    return `elided quote: the fragment "${thin}" is too short to support a claim (each part between "..." needs at least ${MIN_FRAGMENT_WORDS} words or ${MIN_FRAGMENT_CHARS} letters)`;
  }
  const quoted = parts.reduce((sum, part) => sum + nonSpaceLength(part), 0);
  const share = quoted / Math.max(1, nonSpaceLength(normalize(quote).text));
  if (share < MIN_QUOTED_SHARE) {
    return `elided quote: only ${Math.round(share * 100)}% of the quote is quoted text, the rest elision marks (at least ${MIN_QUOTED_SHARE * 100}% needed)`;
  }
  return undefined;
}

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

function nonSpaceLength(text: string): number {
  return text.replace(/\s+/g, '').length;
}

function trimEdges(text: string): string {
  return text.replace(/^[\s.,;:]+|[\s.,;:]+$/g, '');
}

type Located = Omit<Citation, 'quote'>;

function findQuote(
  reading: QuoteReading,
  evidence: EvidenceSet,
  normalizedOf: (text: string) => string,
  docMatches: (docId: string) => boolean,
  rules: ElisionRules,
): { located: Located; fragments: string[] } | undefined {
  for (const item of evidence.items()) {
    if (!docMatches(item.chunk.docId)) continue;
    let fragments: string[] | undefined;
    for (const text of item.shown) if ((fragments = reading.within(normalizedOf(text), rules))) break;
    if (!fragments) continue;
    const { chunk } = item;
    // A PDF chunk holds pages, not lines: the quote is cited by the chunk's pages.
    const lines = isPaged(chunk.sourcePath) ? undefined : locateLines(chunk.text, fragments, chunk.endLine);
    const located = {
      docId: chunk.docId,
      chunkId: chunk.chunkId,
      heading: chunk.heading,
      headingPath: [...chunk.headingPath],
      sourcePath: chunk.sourcePath,
      startLine: lines?.startLine ?? chunk.startLine,
      endLine: lines?.endLine ?? chunk.endLine,
    };
    return { located, fragments };
  }
  return undefined;
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
type ElisionRules = 'strict' | 'loose';

/** A quote prepared for matching against normalised shown texts (see {@link createQuoteReading}). */
interface QuoteReading {
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
function createQuoteReading(quote: string): QuoteReading {
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

/** Source lines of the quote inside a chunk, anchoring the chunk text's last line at `endLine`. */
function locateLines(text: string, parts: string[], endLine: number): { startLine: number; endLine: number } | undefined {
  const { text: normalized, offsets } = normalize(text);
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (first === undefined || last === undefined) return undefined;
  const start = normalized.indexOf(first);
  if (start < 0) return undefined;
  const lastAt = normalized.indexOf(last, start);
  const startOffset = offsets[start] ?? 0;
  const endOffset = offsets[Math.max(start, lastAt) + last.length - 1] ?? startOffset;
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length - 1;
  const firstLineOfText = endLine - (text.replace(/\n+$/, '').split('\n').length - 1);
  return { startLine: firstLineOfText + lineOf(startOffset), endLine: firstLineOfText + lineOf(endOffset) };
}

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
  const source = input.replace(/\[([^\]]*)\]\([^)]*\)/g, (match, label: string) => label + ' '.repeat(match.length - label.length));
  let text = '';
  const offsets: number[] = [];
  let pendingSpace = false;
  for (let index = 0; index < source.length; index++) {
    let char = source[index] ?? '';
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
