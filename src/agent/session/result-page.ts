import type { Hit } from '../../index/types.ts';
import type { LinkResolver, PassageLink } from './passage-links.ts';
import type { SectionPage } from './section-page.ts';

/**
 * Characters of passage text one page of search results shows at most, snippets and whole
 * passages together: 4,800 characters (about 1,200 tokens), one and a half `read_section` pages
 * (3,200 characters). A page of five snippets shows about 1,500; a model that wants the answer's
 * wording reads the best one or two passages whole next (two calls of up to 3,200 characters
 * each), so showing the short ones whole in the result costs fewer characters than those reads.
 */
export const RESULT_TEXT_BUDGET = 4800;

/**
 * A passage of at most this many characters (about 400 tokens, half a read page) is shown whole in
 * a search result, budget allowing: 96% of the chunks of the Vitest docs, 97% of Graphile
 * Worker's, all of Orbit's and MuSiQue's (the dev sets; chunks are cut at 1,800), so the budget,
 * not this length, decides most pages. A longer passage shows its snippet.
 */
export const WHOLE_PASSAGE_CHARS = 1600;

/** How much of its passages a page of search results shows. */
export interface ResultTextOptions {
  /** {@link RESULT_TEXT_BUDGET} by default. */
  budget?: number;
  /** {@link WHOLE_PASSAGE_CHARS} by default. */
  wholeChars?: number;
  /** Whether a passage can be shown whole at all (e.g. whether it fits one read page): all by default. */
  fits?: (hit: Hit) => boolean;
}

/**
 * The hits of a page of search results shown whole instead of by their snippet: in rank order,
 * each passage of at most `wholeChars` characters while the page's text stays within `budget`,
 * counting the snippets of the hits after it (each hit shows at least its snippet).
 *
 * @example
 * wholePassages([short, long, short2]); // Set { short.chunkId, short2.chunkId } when the budget holds both
 */
export function wholePassages(hits: readonly Hit[], options: ResultTextOptions = {}): Set<string> {
  const budget = options.budget ?? RESULT_TEXT_BUDGET;
  const wholeChars = options.wholeChars ?? WHOLE_PASSAGE_CHARS;
  const snippets = hits.map((hit) => hit.snippet.length);
  let snippetsAfter = snippets.reduce((sum, length) => sum + length, 0);
  let used = 0;
  const whole = new Set<string>();
  hits.forEach((hit, rank) => {
    snippetsAfter -= snippets[rank]!;
    const fits = hit.text.length <= wholeChars && used + hit.text.length + snippetsAfter <= budget && (options.fits?.(hit) ?? true);
    if (fits) whole.add(hit.chunkId);
    used += fits ? hit.text.length : snippets[rank]!;
  });
  return whole;
}

/**
 * What a page of results shows of each hit by a page of its text: with `fullText` every hit's
 * first page; otherwise the short passages shown whole within `budget` ({@link wholePassages}),
 * each one that fits one read page. The other hits show their snippet.
 *
 * @example
 * resultPages(hits, { fullText: false, budget: 4800, page: (text) => sectionPage(text, { offset: 0, maxTokens: 800 }) });
 */
export function resultPages(hits: readonly Hit[], options: { fullText: boolean; budget: number; page: (text: string) => SectionPage }): Map<string, SectionPage> {
  const whole = options.fullText ? undefined : wholePassages(hits, { budget: options.budget, fits: (hit) => options.page(hit.text).complete });
  const pages = new Map<string, SectionPage>();
  for (const hit of hits) if (whole === undefined || whole.has(hit.chunkId)) pages.set(hit.chunkId, options.page(hit.text));
  return pages;
}

/**
 * The internal links of what a page of results shows of each hit (its page, else its snippet),
 * with their targets, by chunk id; hits without links are left out.
 */
export async function resultLinks(hits: readonly Hit[], pages: ReadonlyMap<string, SectionPage>, resolver: LinkResolver): Promise<Map<string, PassageLink[]>> {
  const links = new Map<string, PassageLink[]>();
  for (const hit of hits) {
    const found = await resolver.links(hit, pages.get(hit.chunkId)?.text ?? hit.snippet);
    if (found.length > 0) links.set(hit.chunkId, found);
  }
  return links;
}

/**
 * The already-seen hits a page passed over, in rank order: those ranked above the last passage it
 * shows, or every one fetched when nothing unseen was left to show.
 */
export function skippedHits(hits: Hit[], shown: Hit[], more: boolean, seen: (chunkId: string) => boolean): Hit[] {
  const shownIds = new Set(shown.map((hit) => hit.chunkId));
  let last = hits.length - 1;
  if (more) while (last >= 0 && !shownIds.has(hits[last]!.chunkId)) last--;
  return hits.slice(0, last + 1).filter((hit) => seen(hit.chunkId));
}
