import type { Hit } from '../../index/types.ts';

/**
 * How later pages of a query spread over documents: from page `fromPage` on, a page keeps at
 * most `maxPerDoc` passages of one document (counting those the run has already seen), and the
 * slots it frees go to the best passages of documents the run has not seen yet, found among the
 * next `lookahead` ranks. Doc recall at a fixed passage budget rewards covering more pages,
 * while answers often need a second section of a page already found, so only a third passage of
 * a page gives way, and only from page 3 on (docs/calibration.md: on page 2 it lost answers).
 */
export interface PageDiversity {
  fromPage: number;
  maxPerDoc: number;
  lookahead: number;
}

/** What `search_docs` ships: from page 3, at most 2 passages of a page, looking 10 ranks ahead. */
export const DEFAULT_PAGE_DIVERSITY: PageDiversity = { fromPage: 3, maxPerDoc: 2, lookahead: 10 };

/**
 * The `k` passages of a page: `window` holds the page's unseen hits in rank order, then those of
 * the next ranks. Hits of documents already shown `maxPerDoc` times (in `seenDocIds`, one entry
 * per passage seen, or on this page) give way to the best hit of each document not seen yet;
 * when there are not enough of those, the rest follow in rank order.
 *
 * @example
 * // seen: a#0, a#1; the page's hits a#2, b#0; next rank c#0
 * diversePage([a2, b0, c0], { k: 2, maxPerDoc: 2, seenDocIds: ['a', 'a'] }); // [b0, c0]
 */
export function diversePage(window: Hit[], options: { k: number; maxPerDoc: number; seenDocIds: string[] }): Hit[] {
  const { k, maxPerDoc } = options;
  const count = new Map<string, number>();
  for (const docId of options.seenDocIds) count.set(docId, (count.get(docId) ?? 0) + 1);
  const kept: Hit[] = [];
  for (const hit of window.slice(0, k)) {
    const shown = count.get(hit.docId) ?? 0;
    if (shown >= maxPerDoc) continue;
    count.set(hit.docId, shown + 1);
    kept.push(hit);
  }
  for (const hit of window.slice(k)) {
    if (kept.length >= k) break;
    if (count.has(hit.docId)) continue;
    count.set(hit.docId, 1);
    kept.push(hit);
  }
  for (const hit of window) {
    if (kept.length >= k) break;
    if (!kept.includes(hit)) kept.push(hit);
  }
  return kept;
}
