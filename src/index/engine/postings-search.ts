import { lengthNorms, lowered, type Scoring, type TermInfo } from './postings-bm25.ts';
import { END, TermCursor } from './postings-cursor.ts';
import { blockOf, createRankScratch, nextStamp, WINDOW, type RankScratch } from './postings-scratch.ts';
import { keepingRows, seedSlots, seedThreshold } from './postings-seed.ts';
import type { PostingsReader } from './postings-store.ts';
import { TopK } from './postings-topk.ts';
import type { RankRequest, ScoredId } from './rank-request.ts';

export { createRankScratch, type RankScratch } from './postings-scratch.ts';
export type { RankRequest, RankStats, ScoredId } from './rank-request.ts';

/**
 * A non-essential term is read term at a time in a window, like the essential ones, when its
 * postings there are at most this many times the window's chunks that would look it up: a look-up
 * (a skip, a partial decode, a call) costs several times a posting read in order.
 */
const SCAN_RATIO = 2;

/**
 * The top `k` chunks by BM25 as FTS5's `bm25()` scores them (same IDF, weighted term frequency
 * and length normalisation, the same sum over phrases, ties by smaller id), computed from the
 * postings store with dynamic pruning, so that a query's cost grows with the postings that can
 * still change the top k rather than with every posting of its terms:
 * - **MaxScore**: the terms sorted by their largest possible contribution; once the k-th score
 *   θ exceeds the sum of the smallest bounds, those terms are non-essential: only chunks holding
 *   an essential term are visited, the others are looked up in them by skipping blocks.
 * - **Block-max**: each block's bound (from its largest per-column counts and shortest chunk);
 *   a run of chunks whose blocks cannot reach θ together is skipped without being decoded.
 * - **Windows, term at a time**: in a window of at most {@link WINDOW} ids the essential terms'
 *   postings are added into one sum per chunk, then the chunks are taken in id order (cheaper
 *   than finding the smallest of many cursors per chunk when a question has many terms). A
 *   non-essential term with few postings in the window for its candidates ({@link SCAN_RATIO})
 *   is read the same way there, without making candidates, instead of looked up per chunk.
 * - **Seed**: a first θ from the rarest terms alone (a chunk scores at least their part of its
 *   score), so pruning starts before the first k chunks are found.
 * `accept` (the filter) is asked only for a chunk that would enter the top k, so filters apply
 * before the cut.
 *
 * @example
 * topByBm25(createPostingsReader((sql) => db.prepare(sql)), { tokens: ['retri', 'backoff'], weights: [2, 3, 0.5, 1, 1], k: 10 });
 * // [{ id: 812, score: 14.2 }, ...]
 */
export function topByBm25(reader: PostingsReader, request: RankRequest): ScoredId[] {
  const { k } = request;
  const totals = reader.totals();
  if (totals.chunks === 0 || request.tokens.length === 0 || k < 1) return [];
  const stored = reader.terms([...new Set(request.tokens)]);
  const phraseTerms: number[] = [];
  const terms: TermInfo[] = [];
  const slotOf = new Map<string, number>();
  for (const token of request.tokens) {
    const term = stored.get(token);
    if (term === undefined) continue;
    let slot = slotOf.get(token);
    if (slot === undefined) {
      slot = terms.length;
      slotOf.set(token, slot);
      terms.push({ stored: term, multiplicity: 0, idf: 0 });
    }
    terms[slot]!.multiplicity += 1;
    phraseTerms.push(slot);
  }
  if (terms.length === 0) return [];
  const logs = reader.logs(terms.map((term) => (totals.chunks - term.stored.df + 0.5) / (term.stored.df + 0.5)));
  terms.forEach((term, slot) => (term.idf = logs[slot]! <= 0 ? 1e-6 : logs[slot]!));
  const exact = (contributions: Float64Array) => {
    let score = 0;
    for (const slot of phraseTerms) score += contributions[slot]!;
    return score;
  };
  if (request.stats !== undefined) request.stats.postings += terms.reduce((sum, term) => sum + term.stored.df, 0);
  let scratch = request.scratch;
  if (scratch === undefined || !scratch.clean) {
    const fresh = createRankScratch();
    if (scratch === undefined) scratch = fresh;
    else Object.assign(scratch, fresh);
  }
  scratch.clean = false;
  const averageLength = totals.tokens / totals.chunks;
  const norms = lengthNorms(averageLength, scratch.norms);
  scratch.norms = { averageLength, norms };
  const scoring: Scoring = { weights: request.weights, averageLength, norms, chunks: totals.chunks, stats: request.stats };
  if (scratch.cells.length < WINDOW * terms.length) {
    scratch.cells = new Float64Array(WINDOW * terms.length);
    scratch.stamps = new Int32Array(WINDOW * terms.length);
  }
  const seeds = seedSlots(terms);
  // The seed pass reads the rarest terms from their first row, as the main pass does again: their rows are kept between the two.
  const rows = keepingRows(reader, new Set(seeds.map((slot) => terms[slot]!.stored.id)));
  const floor = seedThreshold(rows, terms, seeds, scoring, request, scratch);
  const top = maxScore(rows, terms, scoring, request, exact, floor, scratch);
  scratch.clean = true;
  return top;
}

/** MaxScore with block-max skipping, scored window by window, term at a time (see {@link topByBm25}). */
function maxScore(
  reader: PostingsReader,
  terms: readonly TermInfo[],
  scoring: Scoring,
  request: RankRequest,
  exact: (contributions: Float64Array) => number,
  floor: number,
  scratch: RankScratch,
): ScoredId[] {
  const cursors = terms.map((term, slot) => new TermCursor(reader, term, slot, scoring, blockOf(scratch, slot))).sort((a, b) => a.maxBound - b.maxBound);
  const count = cursors.length;
  // upTo[i]: the most that cursors 0..i add to a score together.
  const upTo = new Float64Array(count);
  cursors.forEach((cursor, n) => (upTo[n] = (n === 0 ? 0 : upTo[n - 1]!) + cursor.maxBound));
  const heap = new TopK(request.k);
  const contributions = new Float64Array(count);
  const stats = request.stats;
  // Per chunk of a window: whether an essential term holds it (a bit) and the sum of their
  // contributions (both zeroed again as they are read); each term read in the window's
  // contribution (a column of WINDOW per term, sized by topByBm25), valid where its stamp is the window's.
  const { marks, sums, cells, stamps } = scratch;
  // Each probed term's contribution to the chunk being scored, by cursor.
  const probed = new Float64Array(count);
  let threshold = floor;
  // θ lowered by a relative 1e-12: what a bound or partial sum must fall below to be pruned
  // (sums in another order than the exact score's may differ in the last bits).
  let cut = lowered(threshold);
  let firstEssential = 0;
  const raise = () => {
    if (heap.full()) threshold = Math.max(threshold, heap.worstScore());
    cut = lowered(threshold);
    while (firstEssential < count && upTo[firstEssential]! < cut) firstEssential += 1;
  };
  raise();

  // Windows: from the smallest position of the essential terms to the end of the first of their
  // blocks to end. A window whose blocks cannot reach θ with every other term is skipped
  // undecoded; in the others, the chunks of the essential terms are scored one by one.
  while (firstEssential < count) {
    const partition = firstEssential;
    const setAside = partition === 0 ? 0 : upTo[partition - 1]!;
    let from = END;
    let windowEnd = END;
    for (let n = partition; n < count; n += 1) {
      const cursor = cursors[n]!;
      if (cursor.done()) continue;
      from = Math.min(from, cursor.lowerBound());
      windowEnd = Math.min(windowEnd, cursor.blockLastId());
    }
    if (from === END) break;
    if (threshold > -Infinity) {
      let bound = setAside;
      for (let n = partition; n < count; n += 1) {
        const cursor = cursors[n]!;
        if (!cursor.done() && cursor.lowerBound() <= windowEnd) bound += cursor.blockBound();
      }
      if (bound < cut) {
        for (let n = partition; n < count; n += 1) cursors[n]!.shallowAdvance(windowEnd + 1);
        continue;
      }
    }
    // The window, term at a time: each essential term's postings in it added into one sum per
    // chunk (and kept per term for the exact score), then the chunks in id order.
    windowEnd = Math.min(windowEnd, from + WINDOW - 1);
    const stamp = nextStamp(scratch);
    let markedCount = 0;
    for (let n = partition; n < count; n += 1) markedCount = cursors[n]!.readWindow(from, windowEnd, scratch, n * WINDOW, stamp, markedCount);
    // The non-essential terms with few postings here for the chunks that would look them up are
    // read the same way (making no chunk a candidate), from the largest bound down: terms from
    // `scanFrom` on have their contributions in `cells`, the others are looked up per chunk.
    let scanFrom = partition;
    while (scanFrom > 0 && cursors[scanFrom - 1]!.postingsUpTo(windowEnd, markedCount * SCAN_RATIO) <= markedCount * SCAN_RATIO) {
      scanFrom -= 1;
      cursors[scanFrom]!.readWindow(from, windowEnd, scratch, scanFrom * WINDOW, stamp);
    }
    // The chunks the essential terms marked, in id order: MarkedPositions' walk inlined (through
    // its next() the bench questions at 1M chunks took 2-4% longer).
    for (let word = 0, words = (windowEnd - from + 32) >>> 5; word < words; word += 1) {
      let bits = marks[word]!;
      if (bits === 0) continue;
      marks[word] = 0;
      do {
        const low = bits & -bits;
        bits ^= low;
        const at = (word << 5) | (31 - Math.clz32(low));
        let score = sums[at]!;
        sums[at] = 0;
        const doc = from + at;
        if (stats !== undefined) stats.candidates = (stats.candidates ?? 0) + 1;
        if (score + setAside < cut) continue;
        // The non-essential terms, largest bound first, while the chunk can still reach θ.
        let n = partition - 1;
        for (; n >= 0; n -= 1) {
          if (score + upTo[n]! < cut) break;
          const cursor = cursors[n]!;
          let contribution = 0;
          if (n >= scanFrom) {
            if (stamps[n * WINDOW + at] === stamp) contribution = cells[n * WINDOW + at]!;
          } else {
            if (stats !== undefined) stats.probes = (stats.probes ?? 0) + 1;
            if (cursor.advance(doc) === doc) contribution = cursor.contribution();
          }
          probed[n] = contribution;
          score += contribution * cursor.multiplicity;
        }
        if (n >= 0 || score < cut) continue;
        for (let m = 0; m < count; m += 1) {
          const cell = m * WINDOW + at;
          contributions[cursors[m]!.slot] = m < partition ? probed[m]! : stamps[cell] === stamp ? cells[cell]! : 0;
        }
        const full = exact(contributions);
        if (full < floor || !heap.admits(full, doc)) continue;
        if (request.accept !== undefined && !request.accept(doc)) continue;
        heap.push(full, doc);
        raise();
      } while (bits !== 0);
    }
  }
  return heap.sorted();
}

