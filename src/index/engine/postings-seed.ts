import { lowered, type Scoring, type TermInfo } from './postings-bm25.ts';
import { END, TermCursor } from './postings-cursor.ts';
import { blockOf, nextStamp, WINDOW, type RankScratch } from './postings-scratch.ts';
import type { RankRequest } from './rank-request.ts';
import type { PostingsReader } from './postings-store.ts';
import { TopK } from './postings-topk.ts';

/**
 * The seed pass of postings-search.ts: a first θ from the rarest terms alone, before the
 * MaxScore pass starts, so that pruning starts before the first k chunks are found.
 */

/** The seed pass reads its terms window by window when they hold at least this many postings per window of ids on average. */
const SEED_POSTINGS_PER_WINDOW = 8;
/** The seed pass reads the rarest terms up to about this many postings. */
const SEED_POSTINGS = 4_096;

/**
 * The seed terms: the rarest, and the next rarest while they hold at most about
 * {@link SEED_POSTINGS} postings together; never all of them (that would be the whole query).
 */
export function seedSlots(terms: readonly TermInfo[]): number[] {
  if (terms.length < 2) return [];
  const byRarity = terms.map((term, slot) => ({ slot, df: term.stored.df })).sort((a, b) => a.df - b.df);
  const seeds: number[] = [];
  let postings = 0;
  for (const { slot, df } of byRarity.slice(0, -1)) {
    if (seeds.length > 0 && postings + df > SEED_POSTINGS) break;
    seeds.push(slot);
    postings += df;
  }
  return seeds;
}

/** `reader`, remembering for this search the rows it gives of the terms `termIds`, by the call that asked for them. */
export function keepingRows(reader: PostingsReader, termIds: ReadonlySet<number>): PostingsReader {
  if (termIds.size === 0) return reader;
  const kept = new Map<string, Array<[number, Uint8Array]>>();
  return {
    ...reader,
    rows(termId, fromKey, limit) {
      if (!termIds.has(termId)) return reader.rows(termId, fromKey, limit);
      const key = `${termId}:${fromKey}:${limit}`;
      let rows = kept.get(key);
      if (rows === undefined) kept.set(key, (rows = reader.rows(termId, fromKey, limit)));
      return rows;
    },
  };
}

/**
 * A lower bound of the k-th best full score, or -Infinity: the k-th best score over the seed
 * terms alone (the chunks they hold, filter applied), since no term lowers a score; summed in
 * cursor order rather than the exact score's phrase order, so lowered by a relative 1e-12 to stay
 * below every score it bounds. Seed postings dense among the ids ({@link SEED_POSTINGS_PER_WINDOW}) are read
 * window by window, term at a time, as the main pass reads its essential terms; sparse ones
 * chunk by chunk, the smallest id of the cursors first (a window per few postings would cost more).
 */
export function seedThreshold(reader: PostingsReader, terms: readonly TermInfo[], seeds: readonly number[], scoring: Scoring, request: RankRequest, scratch: RankScratch): number {
  if (seeds.length === 0) return -Infinity;
  const cursors = seeds.map((slot, n) => new TermCursor(reader, terms[slot]!, slot, scoring, blockOf(scratch, n)));
  const heap = new TopK(request.k);
  const offer = (score: number, doc: number) => {
    if (heap.admits(score, doc) && (request.accept === undefined || request.accept(doc))) heap.push(score, doc);
  };
  const postings = seeds.reduce((sum, slot) => sum + terms[slot]!.stored.df, 0);
  if (postings * WINDOW >= SEED_POSTINGS_PER_WINDOW * scoring.chunks) {
    const { marked, sums } = scratch;
    for (;;) {
      let from = END;
      for (const cursor of cursors) from = Math.min(from, cursor.lowerBound());
      if (from === END) break;
      const stamp = nextStamp(scratch);
      cursors.forEach((cursor, n) => cursor.readWindow(from, from + WINDOW - 1, scratch, n * WINDOW, stamp, 0));
      marked.start(WINDOW);
      for (let at = marked.next(); at >= 0; at = marked.next()) {
        const score = sums[at]!;
        sums[at] = 0;
        offer(score, from + at);
      }
    }
  } else {
    for (;;) {
      let doc = END;
      for (const cursor of cursors) doc = Math.min(doc, cursor.doc());
      if (doc === END) break;
      let score = 0;
      for (const cursor of cursors) {
        if (cursor.doc() !== doc) continue;
        score += cursor.contribution() * cursor.multiplicity;
        cursor.next();
      }
      offer(score, doc);
    }
  }
  return heap.full() ? lowered(heap.worstScore()) : -Infinity;
}
