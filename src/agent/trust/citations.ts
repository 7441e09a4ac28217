import { isPaged } from '../../corpus/locator.ts';
import { sectionAtLine } from '../../index/heading-path.ts';
import type { Citation, DroppedCitation } from './answer.ts';
import type { EvidenceSet } from './evidence.ts';
import {
  createQuoteReading,
  hasSubstance,
  MIN_FRAGMENT_CHARS,
  MIN_FRAGMENT_WORDS,
  MIN_QUOTED_SHARE,
  nonSpaceLength,
  normalize,
  quoteParts,
  type ElisionRules,
  type QuoteReading,
} from './quote-reading.ts';

export { hasSubstance, MIN_FRAGMENT_CHARS, MIN_FRAGMENT_WORDS, MIN_QUOTED_SHARE, normalize, quoteParts } from './quote-reading.ts';

/** Shortest quote (normalised characters) that can support a claim. */
export const MIN_QUOTE_CHARS = 12;

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
  return locateLines(text, fragments, endLine);
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
    // Named after the part of the chunk the quote is in (a subsection held in its section).
    const section = lines ? sectionAtLine(chunk, lines.startLine) : { heading: chunk.heading, headingPath: [...chunk.headingPath] };
    const located = {
      docId: chunk.docId,
      chunkId: chunk.chunkId,
      ...section,
      sourcePath: chunk.sourcePath,
      startLine: lines?.startLine ?? chunk.startLine,
      endLine: lines?.endLine ?? chunk.endLine,
    };
    return { located, fragments };
  }
  return undefined;
}

/**
 * Source lines of the quote's parts inside a chunk, anchoring the chunk text's last line at
 * `endLine`: each part is sought after the one before (a sentence and its code block: the closing
 * fence is the one after the code, not the opening one), else anywhere (a table row quoted before
 * its header); the lines span them all.
 */
function locateLines(text: string, parts: string[], endLine: number): { startLine: number; endLine: number } | undefined {
  const { text: normalized, offsets } = normalize(text);
  const first = parts[0];
  if (first === undefined) return undefined;
  let start = normalized.indexOf(first);
  if (start < 0) return undefined;
  let end = start + first.length;
  let after = end;
  for (const part of parts.slice(1)) {
    let at = normalized.indexOf(part, after);
    if (at < 0) at = normalized.indexOf(part);
    if (at < 0) continue;
    start = Math.min(start, at);
    end = Math.max(end, at + part.length);
    after = at + part.length;
  }
  const startOffset = offsets[start] ?? 0;
  const endOffset = offsets[end - 1] ?? startOffset;
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length - 1;
  const firstLineOfText = endLine - (text.replace(/\n+$/, '').split('\n').length - 1);
  return { startLine: firstLineOfText + lineOf(startOffset), endLine: firstLineOfText + lineOf(endOffset) };
}
