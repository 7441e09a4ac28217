import type { Doc } from '../corpus/types.ts';

/** Why a failed agentic case failed (see {@link classifyFailure}). */
export type FailureBucket = 'retrieval' | 'ranking' | 'generation' | 'planning' | 'error';

/** Buckets in report order. */
export const FAILURE_BUCKETS: readonly FailureBucket[] = ['retrieval', 'ranking', 'generation', 'planning', 'error'];

/** What {@link classifyFailure} reads of a failed case. */
export interface FailureFacts {
  /** Gold doc ids; empty when the right outcome is to abstain. */
  gold: string[];
  /** Doc ids of every chunk the run saw or read. */
  seenDocIds: string[];
  /** Doc ids of the verified citations. */
  citedDocIds: string[];
  /** Every search query the run sent, in order. */
  queries: string[];
  /** The run failed (provider error after retries, or it threw). */
  errored: boolean;
}

/** Distinctive title/heading terms of each document, for the planning test. */
export type DocTerms = Map<string, Set<string>>;

/**
 * Puts a failed case (it cited no gold page, or answered where it should abstain) in ONE
 * bucket, by the first rule that applies:
 *
 * 1. `error`: the run failed (a provider error survived the retries, or the run threw).
 * 2. `generation`: there is no gold page and the run answered instead of abstaining; or the run
 *    saw a gold page but cited only other pages (it cited the wrong page).
 * 3. `ranking`: every gold page was seen, yet none was cited (seen but not used).
 * 4. `planning`: some gold page was never seen AND no search query of the run contained any
 *    distinctive term of that page's title or headings: the hop that needed it was never
 *    searched. A term is distinctive (see {@link distinctiveTerms}) when it occurs in the
 *    title/headings of at most max(2, 2% of the docs) documents; terms are lowercased
 *    letter/digit runs, at least 3 characters (or containing a digit), not stop words, with a
 *    plural "s" removed. A page with no distinctive term is never judged unsearched.
 * 5. `retrieval`: some gold page was never seen although the run searched for it (rule 4 did
 *    not apply): the index did not surface it.
 *
 * @example
 * classifyFailure({ gold: ['limits'], seenDocIds: ['flows'], citedDocIds: [], queries: ['step result'], errored: false }, terms);
 * // 'planning' when no query mentioned "limits" (or another distinctive term of that page)
 */
export function classifyFailure(facts: FailureFacts, terms: DocTerms): FailureBucket {
  if (facts.errored) return 'error';
  if (facts.gold.length === 0) return 'generation';
  const seen = new Set(facts.seenDocIds);
  const anyGoldSeen = facts.gold.some((docId) => seen.has(docId));
  if (anyGoldSeen && facts.citedDocIds.length > 0) return 'generation';
  const missing = facts.gold.filter((docId) => !seen.has(docId));
  if (missing.length === 0) return 'ranking';
  const searched = new Set(facts.queries.flatMap(termsOf));
  const unsearched = missing.some((docId) => {
    const docTerms = terms.get(docId);
    return docTerms !== undefined && docTerms.size > 0 && ![...docTerms].some((term) => searched.has(term));
  });
  return unsearched ? 'planning' : 'retrieval';
}

/**
 * The distinctive title/heading terms of every document: terms (see {@link termsOf}) of its
 * title and section headings that occur in the titles/headings of at most max(2, 2% of the
 * documents) documents.
 *
 * @example
 * distinctiveTerms(docs).get('error-codes'); // Set { 'orb', 'payloadtoolarge', ... }
 */
export function distinctiveTerms(docs: Doc[]): DocTerms {
  const perDoc = new Map<string, Set<string>>();
  const frequency = new Map<string, number>();
  for (const doc of docs) {
    const headings = [doc.title, ...doc.chunks.map((chunk) => chunk.heading)];
    const terms = new Set(headings.flatMap(termsOf));
    perDoc.set(doc.docId, terms);
    for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const limit = Math.max(2, Math.floor(docs.length * 0.02));
  const result: DocTerms = new Map();
  for (const [docId, terms] of perDoc) {
    result.set(docId, new Set([...terms].filter((term) => (frequency.get(term) ?? 0) <= limit)));
  }
  return result;
}

const STOP_WORDS = new Set(
  'the and for with from into that this what which when where who how why are was were not can does did its your you our use using about over under between other more most than then there their'.split(' '),
);

/**
 * The matching terms of a text: lowercased letter/digit runs of 3+ characters (or containing a
 * digit), minus stop words, with a plural "s" removed.
 *
 * @example
 * termsOf('ORB-1202 PayloadTooLarge errors'); // ['orb', '1202', 'payloadtoolarge', 'error']
 */
export function termsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .filter((word) => (word.length >= 3 || /\d/.test(word)) && !STOP_WORDS.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}
