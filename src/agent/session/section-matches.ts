/**
 * Where in a long section a query matches: the start offsets of its best lines, so a model
 * paging through a 20 KB table can jump to the row it needs (`read_section` with that offset)
 * instead of reading every page. Only offsets are returned, never text: what the model is
 * shown of a section stays exactly the pages it read.
 */

/** One line of a section that matches the query, by its start offset. */
export interface LineMatch {
  /** Offset of the line's first character in the section text (a valid read_section offset). */
  offset: number;
  /** The query terms the line contains, in query order. */
  terms: string[];
}

/** Lines reported per read at most. */
export const MAX_LINE_MATCHES = 3;

/** A line is reported only if it scores at least this share of the best line's score. */
const MIN_SHARE_OF_BEST = 0.5;

/** Function words of questions: they say nothing about which line holds the answer. */
const STOP_WORDS = new Set(
  'a an and are as at be by can do does did for from how i in is it its my of on or that the this to was what when where which who why will with you your'.split(' '),
);

/**
 * The lines of `text` that match `query` best, outside the ranges already shown. Terms are the
 * query's lowercase letter/digit/underscore runs minus function words; a line scores the sum of
 * `ln(lines / linesWithTerm)` over the distinct terms it contains, `lines` counting the lines
 * that hold a word (a term on more than half the lines, like the "ORB" of every row, locates
 * nothing and weighs 0); in a section of at most 4 such lines every term present counts,
 * `ln(1 + lines / linesWithTerm)`. Lines scoring 0 or under half the best line's score are left
 * out; ties go to the earlier line. Deterministic.
 *
 * @example
 * lineMatches('| ORB-1 | ok |\n| ORB-2 | too large |', 'ORB-2', { shown: [] });
 * // [{ offset: 15, terms: ['orb', '2'] }]
 */
/**
 * Whether `query` has a term to locate (a word that is not a function word).
 *
 * @example
 * queryHasTerms('what is it'); // false
 */
export function queryHasTerms(query: string): boolean {
  return tokens(query).some((term) => !STOP_WORDS.has(term));
}

/** Up to this many non-blank lines, a section is short: a term on most of its lines still locates. */
const SHORT_SECTION_LINES = 4;

export function lineMatches(
  text: string,
  query: string,
  options: { shown: ReadonlyArray<readonly [start: number, end: number]>; max?: number },
): LineMatch[] {
  const terms = [...new Set(tokens(query))].filter((term) => !STOP_WORDS.has(term));
  if (terms.length === 0) return [];
  const lines: Array<{ offset: number; end: number; terms: Set<string> }> = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    lines.push({ offset, end: offset + line.length, terms: new Set(tokens(line)) });
    offset += line.length + 1;
  }
  const count = lines.filter((line) => line.terms.size > 0).length;
  const weight = new Map(
    terms.map((term) => {
      const containing = lines.filter((line) => line.terms.has(term)).length;
      if (containing === 0) return [term, 0] as const;
      // In a short section every term present locates its line; in a longer one a term on most lines locates nothing.
      if (count <= SHORT_SECTION_LINES) return [term, Math.log(1 + count / containing)] as const;
      return [term, containing > count / 2 ? 0 : Math.log(count / containing)] as const;
    }),
  );
  const fullyShown = (line: { offset: number; end: number }) =>
    options.shown.some(([start, end]) => line.offset >= start && line.end <= end);
  const scored = lines
    .filter((line) => !fullyShown(line))
    .map((line) => {
      const matched = terms.filter((term) => line.terms.has(term));
      return { offset: line.offset, terms: matched, score: matched.reduce((sum, term) => sum + (weight.get(term) ?? 0), 0) };
    })
    .sort((a, b) => b.score - a.score || a.offset - b.offset);
  const best = scored[0]?.score ?? 0;
  return scored
    .filter((line) => line.score > 0 && line.score >= best * MIN_SHARE_OF_BEST)
    .slice(0, options.max ?? MAX_LINE_MATCHES)
    .map(({ offset: start, terms: matched }) => ({ offset: start, terms: matched }));
}

/** A neighbouring section and the words of the query it holds that the section read does not. */
export interface NeighbourTerms {
  relation: 'previous' | 'next';
  chunkId: string;
  terms: string[];
}

/**
 * The neighbour (previous or next section) that holds the most of the query's words that `text`
 * lacks, with those words; undefined when `text` holds them all or no neighbour holds one (the
 * one first in page order of two that hold as many). A model that reads the wrong one of a
 * definition's consecutive chunks (a signature's, its parameters', its notes') learns which to
 * read instead of guessing.
 *
 * @example
 * neighbourTerms('default', 'json.dump(obj, fp)', [{ relation: 'next', chunkId: 'json#5', text: 'If specified, default should be a function ...' }]);
 * // { relation: 'next', chunkId: 'json#5', terms: ['default'] }
 */
export function neighbourTerms(query: string, text: string, neighbours: ReadonlyArray<{ relation: 'previous' | 'next'; chunkId: string; text: string }>): NeighbourTerms | undefined {
  const here = new Set(tokens(text));
  const missing = [...new Set(tokens(query))].filter((term) => !STOP_WORDS.has(term) && !here.has(term));
  let best: NeighbourTerms | undefined;
  for (const { relation, chunkId, text: neighbourText } of neighbours) {
    const held = new Set(tokens(neighbourText));
    const terms = missing.filter((term) => held.has(term));
    if (terms.length > (best?.terms.length ?? 0)) best = { relation, chunkId, terms };
  }
  return best;
}

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}
