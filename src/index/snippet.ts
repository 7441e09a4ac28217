import { IDENTIFIER_RUN, lightStem, searchTerms, type TokenizerOptions } from './analysis/tokenize.ts';
import type { Hit } from './types.ts';

/** Longest snippet, in UTF-16 code units, ellipses included. */
export const SNIPPET_MAX_LENGTH = 300;
/** When the first match lies past the cut, the snippet starts about this many characters before it. */
const LEAD_IN = 60;
/** An ASCII word, maybe capitalised, all capitals or a number: one term, itself lower-cased (most of prose). */
const ONE_TERM = /^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/;

/**
 * The paragraph of `text` with the most occurrences of the query terms (the first one on a tie,
 * the first paragraph when nothing matches), whitespace collapsed, cut to 300 characters at a
 * word boundary with "…". If the paragraph's first match lies beyond the cut, the window starts
 * shortly before that match, with a leading "…", so the snippet shows why the chunk matched.
 *
 * @example
 * makeSnippet('Intro.\n\nSet max_payload_kb to 512.', ['maxpayloadkb'], DEFAULT_TOKENIZER)
 * // 'Set max_payload_kb to 512.'
 */
export function makeSnippet(text: string, terms: string[], tokenizer: TokenizerOptions): string {
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((raw) => raw.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => paragraph !== '');
  if (paragraphs.length === 1 && paragraphs[0]!.length <= SNIPPET_MAX_LENGTH) return paragraphs[0]!;
  const isWanted = createTermMatcher(terms, tokenizer);
  const stems = [...new Set(terms.map(tokenizer.porter ? lightStem : (term: string) => term).map(foldSigma))];
  let best = { paragraph: '', matches: -1, firstOffset: 0 };
  // One paragraph is the snippet whatever it holds: only where its first match is counts.
  const firstOnly = paragraphs.length === 1;
  for (const paragraph of paragraphs) {
    const found = mayMatch(paragraph, stems) ? countMatches(paragraph, isWanted, tokenizer, firstOnly) : NO_MATCH;
    if (found.matches > best.matches) best = { paragraph, ...found };
  }
  return cutAround(best.paragraph, best.firstOffset, SNIPPET_MAX_LENGTH);
}

/** Whether a term of the text is one of the query's, compared as the index compares them (stems with Porter on); verdicts cached. */
function createTermMatcher(terms: string[], tokenizer: TokenizerOptions): (term: string) => boolean {
  const normalise = tokenizer.porter ? lightStem : (term: string) => term;
  const wanted = new Set(terms.map(normalise));
  const verdicts = new Map<string, boolean>();
  return (term) => {
    let verdict = verdicts.get(term);
    if (verdict === undefined) {
      verdict = wanted.has(normalise(term));
      verdicts.set(term, verdict);
    }
    return verdict;
  };
}

const NO_MATCH = { matches: 0, firstOffset: 0 };
/** What a term is made of: every term of a text is a run of these, lower-cased. */
const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;

/** Final sigma as sigma: the one letter whose lower case depends on where it stands in a word. */
function foldSigma(text: string): string {
  return text.replaceAll('ς', 'σ');
}

/**
 * Whether `paragraph` may hold a wanted term, a quick test before {@link countMatches}: each of
 * its terms is lower-cased letters, digits and marks taken in order from one run (an identifier's
 * whole form joins its parts), and each wanted one starts with its stem, so a paragraph where no
 * stem occurs in the text lower-cased with everything else removed holds none.
 */
function mayMatch(paragraph: string, stems: readonly string[]): boolean {
  const letters = foldSigma(paragraph.toLowerCase().replace(NOT_WORD, ''));
  return stems.some((stem) => letters.includes(stem));
}

/**
 * How many of the terms of `paragraph` ({@link searchTerms}) the query wants (with `firstOnly`,
 * up to the first run holding one), and the offset of the run holding the first one (0 for
 * none). A plain word ({@link ONE_TERM}) is its own only term, so it is checked without building
 * the term list; other runs go through searchTerms.
 */
function countMatches(paragraph: string, isWanted: (term: string) => boolean, tokenizer: TokenizerOptions, firstOnly = false): { matches: number; firstOffset: number } {
  let matches = 0;
  let firstOffset = -1;
  const runs = new RegExp(IDENTIFIER_RUN);
  for (let match = runs.exec(paragraph); match !== null; match = runs.exec(paragraph)) {
    const run = match[0];
    const count = ONE_TERM.test(run)
      ? Number(isWanted(run.toLowerCase()))
      : searchTerms(run, tokenizer).reduce((sum, positioned) => sum + Number(isWanted(positioned.term)), 0);
    if (count > 0 && firstOffset < 0) firstOffset = match.index;
    matches += count;
    if (firstOnly && matches > 0) break;
  }
  return { matches, firstOffset: Math.max(0, firstOffset) };
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
  if (focus > max - LEAD_IN) {
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
  if (space > 0) return text.slice(0, space).trimEnd();
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

type LazyHit = Hit & { [SNIPPET]: SnippetSource | string };

/**
 * `hit` with `snippet` as an enumerable property made from its text on first read: callers that
 * skip hits (a search session dropping passages it already showed) never pay for their snippets.
 * Every hit shares one getter, which finds the query's terms on the hit itself: a getter closed
 * over each hit would give each its own hidden class, and those classes (never in the young
 * generation) kept every hit of a search alive through the next minor garbage collections: about
 * 2 MB copied by each of them, pauses of 2-4 ms every 100 searches at 10k chunks.
 *
 * @example
 * const hit = withLazySnippet({ ...chunk, score: 7.2 }, ['retry'], DEFAULT_TOKENIZER);
 * hit.snippet; // made now
 */
export function withLazySnippet(hit: Omit<Hit, 'snippet'>, terms: string[], tokenizer: TokenizerOptions): Hit {
  Object.defineProperty(hit, SNIPPET, { value: { terms, tokenizer } satisfies SnippetSource, writable: true });
  return Object.defineProperty(hit, 'snippet', { enumerable: true, get: readSnippet }) as Hit;
}

function readSnippet(this: LazyHit): string {
  const source = this[SNIPPET];
  if (typeof source === 'string') return source;
  return (this[SNIPPET] = makeSnippet(this.text, source.terms, source.tokenizer));
}
