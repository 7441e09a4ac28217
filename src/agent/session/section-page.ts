/**
 * Pages of a long section: what `read_section`, `read_neighbors` and full-text search results
 * show of a chunk, under a budget in tokens. Nothing is cut silently: a page says where it
 * starts, where the next one starts and how much is left, and paging from 0 through every
 * `nextOffset` shows each character of the section exactly once.
 */

/**
 * Characters per token of the estimate. `estimateTokens` is `ceil(characters / 4)`: the usual
 * rule of thumb for English prose and markdown with BPE tokenizers; tables and code run a little
 * denser, which the budget absorbs. It is an estimate for sizing pages, not for billing.
 */
export const CHARS_PER_TOKEN = 4;

/** Tokens one page may hold by default (about 3,200 characters). */
export const DEFAULT_READ_TOKENS = 800;

/**
 * Estimated tokens of a text (or of a number of characters): `ceil(characters / 4)`.
 *
 * @example
 * estimateTokens('lease_seconds = 30'); // 5
 * estimateTokens(10_240); // 2560
 */
export function estimateTokens(text: string | number): number {
  const chars = typeof text === 'number' ? text : text.length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** One page of a section's text. Offsets count UTF-16 code units of `chunk.text`, from 0. */
export interface SectionPage {
  /** Exactly `sectionText.slice(offset, nextOffset ?? totalChars)`. */
  text: string;
  offset: number;
  /** Where the next page starts; null when this page reaches the end of the section. */
  nextOffset: number | null;
  totalChars: number;
  /** Characters after this page. */
  remainingChars: number;
  complete: boolean;
}

/**
 * The page of `text` that starts at `offset` and holds at most `maxTokens` tokens
 * ({@link estimateTokens}). The cut is the last of these that falls in the second half of the
 * page, in this order of preference: a blank line (paragraph end), a line end after a sentence
 * or table row end, a sentence end inside a line, any line end; else the last whitespace of the
 * page. A page never ends on a heading line when the cut can move before it. A word longer than
 * the whole page is the only thing ever cut inside. The caller
 * validates `offset` first ({@link offsetError}).
 *
 * @example
 * const first = sectionPage(chunk.text, { offset: 0, maxTokens: 800 });
 * const second = first.nextOffset === null ? undefined : sectionPage(chunk.text, { offset: first.nextOffset, maxTokens: 800 });
 */
export function sectionPage(text: string, options: { offset: number; maxTokens: number }): SectionPage {
  const { offset } = options;
  const limit = offset + options.maxTokens * CHARS_PER_TOKEN;
  const end = limit >= text.length ? text.length : cutPoint(text, offset, limit);
  const complete = end >= text.length;
  return {
    text: text.slice(offset, end),
    offset,
    nextOffset: complete ? null : end,
    totalChars: text.length,
    remainingChars: text.length - end,
    complete,
  };
}

/**
 * Boundaries to cut after, best first: a paragraph end; a line end after a sentence, table row
 * or lead-in end (closing quotes, brackets and markdown marks allowed); a sentence end inside a
 * line (hard-wrapped prose); any line end.
 */
const PREFERRED_CUTS = [/\n[ \t]*\n+/g, /[.!?:|]["')\]*_`]*[ \t]*\n/g, /[.!?]["')\]*_`]*[ \t]+/g, /\n/g];

function cutPoint(text: string, offset: number, limit: number): number {
  const half = offset + Math.floor((limit - offset) / 2);
  const latterHalf = text.slice(half, limit);
  for (const pattern of PREFERRED_CUTS) {
    const at = lastMatchEnd(latterHalf, pattern);
    if (at === undefined) continue;
    // A heading belongs with the text it introduces: end the page before a trailing heading.
    const trailingHeading = /\n(#{1,6}[ \t][^\n]*\n*)$/.exec(text.slice(half, half + at));
    return half + at - (trailingHeading?.[1]?.length ?? 0);
  }
  const word = lastMatchEnd(text.slice(offset + 1, limit), /\s+/g);
  if (word !== undefined) return offset + 1 + word;
  // One word longer than the page: cut it, but never between the halves of a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff && limit - 1 > offset ? limit - 1 : limit;
}

function lastMatchEnd(text: string, pattern: RegExp): number | undefined {
  let end: number | undefined;
  for (const match of text.matchAll(pattern)) end = match.index + match[0].length;
  return end;
}

/**
 * Why `offset` cannot start a page of a section of `totalChars` characters, or undefined when
 * it can: a whole number from 0 to `totalChars - 1` (0 is valid for an empty section too).
 *
 * @example
 * offsetError(-1, 'codes#1', 10240); // 'invalid offset -1 for "codes#1": ...'
 */
export function offsetError(offset: number, chunkId: string, totalChars: number): string | undefined {
  const fix = 'use 0 for the start, or the next_offset of the page you read last';
  if (!Number.isInteger(offset) || offset < 0) {
    return `invalid offset ${offset} for "${chunkId}": an offset is a whole number of characters from 0; ${fix}.`;
  }
  if (offset > 0 && offset >= totalChars) {
    return `offset ${offset} is past the end of "${chunkId}" (${totalChars} characters, last offset ${totalChars - 1}); ${fix}.`;
  }
  return undefined;
}

/**
 * The note a cut page carries: how much is left and the exact call that reads on.
 *
 * @example
 * continuationNote('codes#1', page); // '9471 more characters (about 2368 tokens): call read_section with chunk_id "codes#1" and offset 768 to read on.'
 */
export function continuationNote(chunkId: string, page: SectionPage): string | undefined {
  if (page.nextOffset === null) return undefined;
  return `${page.remainingChars} more characters (about ${estimateTokens(page.remainingChars)} tokens): call read_section with chunk_id "${chunkId}" and offset ${page.nextOffset} to read on.`;
}
