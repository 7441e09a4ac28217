// How a unit of a chunk's text matches a search's terms (compared as the index compares them):
// distinct terms, occurrences, and where the best part starts.
import { IDENTIFIER_RUN, lightStem, searchTerms, type TokenizerOptions } from './analysis/tokenize.ts';
import { SPACELESS_CHAR } from '../text/scripts.ts';

/** An ASCII word, maybe capitalised, all capitals or a number: one term, itself lower-cased (most of prose). */
const ONE_TERM = /^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/;

/**
 * How each unit of a text matches `terms`: units where no term can occur are skipped at once
 * ({@link mayMatch}), the others counted ({@link countMatches}; `firstOnly`: up to the first run
 * holding a term). In a unit of text without spaces, `firstOffset` is where the stretch of
 * `spacelessWindow` characters with the most distinct terms starts.
 *
 * @example
 * createUnitMatcher(['maxpayloadkb'], DEFAULT_TOKENIZER, 240)('Set max_payload_kb to 512.', false); // { distinct: 1, matches: 1, firstOffset: 4 }
 */
export function createUnitMatcher(terms: string[], tokenizer: TokenizerOptions, spacelessWindow: number): (text: string, firstOnly: boolean) => UnitMatch {
  const isWanted = createTermMatcher(terms, tokenizer);
  const stems = [...new Set(terms.map(tokenizer.porter ? lightStem : (term: string) => term).map(foldSigma))];
  return (text, firstOnly) => (mayMatch(text, stems) ? countMatches(text, isWanted, tokenizer, firstOnly, spacelessWindow) : NO_MATCH);
}

/** Whether a term of the text is one of the query's, compared as the index compares them (stems with Porter on): its key, or undefined; verdicts cached. */
function createTermMatcher(terms: string[], tokenizer: TokenizerOptions): (term: string) => string | undefined {
  const normalise = tokenizer.porter ? lightStem : (term: string) => term;
  const wanted = new Set(terms.map(normalise));
  const verdicts = new Map<string, string | null>();
  return (term) => {
    let verdict = verdicts.get(term);
    if (verdict === undefined) {
      const key = normalise(term);
      verdict = wanted.has(key) ? key : null;
      verdicts.set(term, verdict);
    }
    return verdict ?? undefined;
  };
}

/** How a unit matches: distinct query terms, occurrences, and where the first match starts. */
export interface UnitMatch {
  distinct: number;
  matches: number;
  firstOffset: number;
}

const NO_MATCH: UnitMatch = { distinct: 0, matches: 0, firstOffset: 0 };
/** What a term is made of: every term of a text is a run of these, lower-cased. */
const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;

/** Final sigma as sigma: the one letter whose lower case depends on where it stands in a word. */
function foldSigma(text: string): string {
  return text.replaceAll('ς', 'σ');
}

/**
 * Whether `text` may hold a wanted term, a quick test before {@link countMatches}: each of
 * its terms is lower-cased letters, digits and marks taken in order from one run (an identifier's
 * whole form joins its parts), and each wanted one starts with its stem, so a text where no
 * stem occurs in the text lower-cased with everything else removed holds none.
 */
function mayMatch(text: string, stems: readonly string[]): boolean {
  const letters = foldSigma(text.toLowerCase().replace(NOT_WORD, ''));
  return stems.some((stem) => letters.includes(stem));
}

/**
 * How many distinct terms of `text` ({@link searchTerms}) the query wants and how many
 * occurrences (with `firstOnly`, up to the first run holding one), and the offset of the run
 * holding the first one (0 for none). A plain word ({@link ONE_TERM}) is its own only term, so it
 * is checked without building the term list; other runs go through searchTerms.
 */
function countMatches(text: string, isWanted: (term: string) => string | undefined, tokenizer: TokenizerOptions, firstOnly: boolean, window: number): UnitMatch {
  if (SPACELESS_CHAR.test(text)) return spacelessMatches(text, isWanted, tokenizer, window);
  let matches = 0;
  let firstOffset = -1;
  const distinct = new Set<string>();
  const runs = new RegExp(IDENTIFIER_RUN);
  const count = (term: string) => {
    const key = isWanted(term);
    if (key === undefined) return 0;
    distinct.add(key);
    return 1;
  };
  for (let match = runs.exec(text); match !== null; match = runs.exec(text)) {
    const run = match[0];
    const found = ONE_TERM.test(run) ? count(run.toLowerCase()) : searchTerms(run, tokenizer).reduce((sum, positioned) => sum + count(positioned.term), 0);
    if (found > 0 && firstOffset < 0) firstOffset = match.index;
    matches += found;
    if (firstOnly && matches > 0) break;
  }
  return { distinct: distinct.size, matches, firstOffset: Math.max(0, firstOffset) };
}

/**
 * {@link countMatches} of a text with runs written without spaces (Chinese, Japanese, Thai),
 * where one paragraph is often a whole passage: `firstOffset` is where the stretch of `window`
 * characters holding the most distinct wanted terms starts, so that the snippet shows the
 * part of the passage that matches, not only its first common term.
 */
function spacelessMatches(text: string, isWanted: (term: string) => string | undefined, tokenizer: TokenizerOptions, window: number): UnitMatch {
  const found: Array<{ key: string; offset: number }> = [];
  for (const { term, offset } of searchTerms(text, tokenizer)) {
    const key = isWanted(term);
    if (key !== undefined) found.push({ key, offset });
  }
  if (found.length === 0) return NO_MATCH;
  let best = { distinct: 0, offset: 0 };
  for (let start = 0, end = 0; start < found.length; start += 1) {
    while (end < found.length && found[end]!.offset < found[start]!.offset + window) end += 1;
    const distinct = new Set(found.slice(start, end).map((match) => match.key)).size;
    if (distinct > best.distinct) best = { distinct, offset: found[start]!.offset };
  }
  return { distinct: new Set(found.map((match) => match.key)).size, matches: found.length, firstOffset: best.offset };
}
