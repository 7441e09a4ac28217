/**
 * How much of a query a page of search results covers: what the "weak matches" note of
 * search_docs is based on. A result can score high on one rare word it shares with the question
 * (a page on Kubernetes for a question about retrying jobs evicted by Kubernetes) while holding
 * none of the rest; its BM25 score says nothing of that, its coverage does.
 */
import type { Hit, IndexBackend } from '../../index/types.ts';
import { contentWords, stem, words } from '../../text/text.ts';

/** Under this weighted share of the query's words, a page of results is flagged "weak matches" (docs/calibration.md). */
export const DEFAULT_WEAK_COVERAGE = 0.4;

/** What a page of results covers of its query. */
export interface QueryCoverage {
  /** Weighted share of the query's words that the passages hold, in [0, 1] (1 for a query of no content word). */
  share: number;
}

/**
 * The weighted share of the query's content words (text.ts `contentWords`: stopwords out, in
 * Chinese, Japanese and Korean the bigrams inside words and no question or function word (nor a
 * particle written onto a Korean word); each word once
 * by its stem: "leases" meets "lease") that the passages hold, each word weighing its inverse document
 * frequency in the index, `ln(1 + chunks / (1 + chunks holding it))`, when the index can tell
 * (`IndexBackend.documentFrequencies`): a rare word weighs more than a common one. Without it
 * (or for an index with restricted pages), every word weighs 1. A passage is its heading path and
 * its text.
 *
 * @example
 * await queryCoverage('retry evicted jobs on kubernetes', ['Deploying > Kubernetes\nRun workers as a Deployment.'], index);
 * // { share: 0.31 }
 */
export async function queryCoverage(query: string, passages: readonly string[], index?: Pick<IndexBackend, 'documentFrequencies'>): Promise<QueryCoverage> {
  const spelled = new Map<string, string>();
  for (const word of contentWords(query)) {
    const key = stem(word);
    if (!spelled.has(key)) spelled.set(key, word);
  }
  if (spelled.size === 0) return { share: 1 };
  const held = heldKeys(new Set(spelled.keys()), passages);
  const weights = await wordWeights([...spelled.values()], index);
  let total = 0;
  let covered = 0;
  [...spelled.keys()].forEach((key, position) => {
    total += weights[position]!;
    if (held.has(key)) covered += weights[position]!;
  });
  return { share: total === 0 ? 1 : Math.round((covered / total) * 1000) / 1000 };
}

/** Whether a page of search results is weak: its best score under `weakScore`, or its passages covering under `weakCoverage` of the query. */
export interface PageStrength {
  /** What the page's passages cover of the query; undefined for a page with no passage. */
  coverage?: QueryCoverage;
  /** The passages cover under `weakCoverage` of the query. */
  uncovered: boolean;
  weak: boolean;
}

/**
 * How strong a page of search results is (see {@link PageStrength}); `bestScore` is the best
 * hit's score before passages already seen were skipped, undefined when nothing matched.
 *
 * @example
 * await pageStrength('retry evicted jobs', hits, 7.2, { weakScore: 1, weakCoverage: 0.4 }, index); // { coverage: { share: 0.31 }, uncovered: true, weak: true }
 */
export async function pageStrength(
  query: string,
  shown: readonly Hit[],
  bestScore: number | undefined,
  thresholds: { weakScore: number; weakCoverage: number },
  index?: Pick<IndexBackend, 'documentFrequencies'>,
): Promise<PageStrength> {
  const coverage = shown.length === 0 ? undefined : await queryCoverage(query, shown.map((hit) => `${hit.headingPath.join(' ')}\n${hit.text}`), index);
  const uncovered = coverage !== undefined && coverage.share < thresholds.weakCoverage;
  return { ...(coverage === undefined ? {} : { coverage }), uncovered, weak: bestScore === undefined || bestScore < thresholds.weakScore || uncovered };
}

/**
 * The keys (stems) of `wanted` that some passage holds. A word is stemmed only when it starts like
 * a wanted stem (its first two letters), and the scan stops once every key was found: linear in
 * the passages, and cheap.
 */
function heldKeys(wanted: Set<string>, passages: readonly string[]): Set<string> {
  const held = new Set<string>();
  const starts = new Set([...wanted].map((key) => key.slice(0, 2)));
  for (const passage of passages) {
    for (const word of words(passage)) {
      if (!starts.has(word.slice(0, 2))) continue;
      const key = stem(word);
      if (wanted.has(key)) held.add(key);
    }
    if (held.size === wanted.size) break;
  }
  return held;
}

async function wordWeights(spellings: string[], index: Pick<IndexBackend, 'documentFrequencies'> | undefined): Promise<number[]> {
  const counted = await index?.documentFrequencies?.(spellings);
  if (counted === undefined) return spellings.map(() => 1);
  return counted.frequencies.map((frequency) => Math.log(1 + counted.chunks / (1 + frequency)));
}
