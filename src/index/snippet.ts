import { lightStem, searchTerms, type TokenizerOptions } from './tokenize.ts';

/** Longest snippet, in UTF-16 code units, ellipses included. */
export const SNIPPET_MAX_LENGTH = 300;
/** When the first match lies past the cut, the snippet starts about this many characters before it. */
const LEAD_IN = 60;

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
  const normalise = tokenizer.porter ? lightStem : (term: string) => term;
  const wanted = new Set(terms.map(normalise));
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((raw) => raw.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => paragraph !== '');
  if (paragraphs.length === 1 && paragraphs[0]!.length <= SNIPPET_MAX_LENGTH) return paragraphs[0]!;
  let best = { paragraph: '', matches: -1, firstOffset: 0 };
  for (const paragraph of paragraphs) {
    const hits = searchTerms(paragraph, tokenizer).filter((positioned) =>
      wanted.has(normalise(positioned.term)),
    );
    if (hits.length > best.matches) {
      best = { paragraph, matches: hits.length, firstOffset: hits[0]?.offset ?? 0 };
    }
  }
  return cutAround(best.paragraph, best.firstOffset, SNIPPET_MAX_LENGTH);
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
