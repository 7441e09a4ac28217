import { newDecodedBlock, type DecodedBlock } from './postings-codec.ts';
import { END, lowered, TermCursor, type Scoring, type TermInfo, type WindowBuffers } from './postings-cursor.ts';
import { TopK } from './postings-topk.ts';
import type { PostingsReader } from './postings-store.ts';

/** A ranked chunk: its id and its BM25 score (higher is better). */
export interface ScoredId {
  id: number;
  score: number;
}

/** What {@link topByBm25} ranks. */
export interface RankRequest {
  /** The query's tokens, one per phrase in query order; a token may repeat (FTS5 scores each phrase). */
  tokens: readonly string[];
  /** The weight of each column (title, heading, headings between, body, identifier expansions). */
  weights: ArrayLike<number>;
  k: number;
  /** Whether a chunk passes the filter; asked only of chunks that would enter the top k. */
  accept?: (id: number) => boolean;
  /** Counts what the search did, when given (tests and benchmarks read it). */
  stats?: RankStats;
  /** Buffers to reuse from one call to the next (see {@link createRankScratch}); fresh ones otherwise. */
  scratch?: RankScratch;
}

/**
 * The window buffers of {@link topByBm25}, for an index to reuse across its searches instead of
 * allocating (and zero-filling) about 300 KB per long question. The search leaves `touched` and
 * `sums` zeroed, and `cells` valid only where `stamps` holds the window's stamp (so nothing needs
 * clearing); one that did not finish (it threw) leaves them marked, and the next search starts afresh.
 */
export interface RankScratch extends WindowBuffers {
  /** The last window's stamp (each window takes the next). */
  stamp: number;
  /** One decoding buffer per cursor (about 2 KB each), as many as the longest question so far had terms. */
  blocks: DecodedBlock[];
  /** False while a search uses them (or after one that threw). */
  clean: boolean;
}

/**
 * New {@link RankScratch} buffers.
 *
 * @example
 * const scratch = createRankScratch();
 * topByBm25(reader, { tokens, weights, k: 10, scratch });
 */
export function createRankScratch(): RankScratch {
  return { touched: new Uint8Array(WINDOW), positions: new Int32Array(WINDOW), sums: new Float64Array(WINDOW), cells: new Float64Array(0), stamps: new Int32Array(0), stamp: 0, blocks: [], clean: true };
}

/** What one {@link topByBm25} call read: postings decoded and blocks skipped undecoded. */
export interface RankStats {
  /** Postings decoded (a block is decoded whole). */
  decoded: number;
  /** Postings of the query's terms (their document frequencies added up). */
  postings: number;
  /** Chunks scored from the essential terms. */
  candidates?: number;
  /** Look-ups of a chunk in a non-essential term. */
  probes?: number;
}

/** Chunk ids per window of the term-at-a-time pass (see maxScore). */
const WINDOW = 2_048;
/**
 * A non-essential term is read term at a time in a window, like the essential ones, when its
 * postings there are at most this many times the window's chunks that would look it up: a look-up
 * (a skip, a partial decode, a call) costs several times a posting read in order.
 */
const SCAN_RATIO = 2;
/** The seed pass reads its terms window by window when they hold at least this many postings per window of ids on average. */
const SEED_POSTINGS_PER_WINDOW = 8;
/** The seed pass reads the rarest terms up to about this many postings. */
const SEED_POSTINGS = 4_096;

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
  const scoring: Scoring = { weights: request.weights, averageLength: totals.tokens / totals.chunks, chunks: totals.chunks, stats: request.stats };
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

/** The next window stamp of `scratch` (after 2^31 - 1 windows, the stamps start over). */
function nextStamp(scratch: RankScratch): number {
  if (scratch.stamp === 0x7fffffff) {
    scratch.stamps.fill(0);
    scratch.stamp = 0;
  }
  return (scratch.stamp += 1);
}

/** Decoding buffer `n` of `scratch` (the seed pass and the main pass each use theirs from 0: one ends before the other starts). */
function blockOf(scratch: RankScratch, n: number): DecodedBlock {
  while (scratch.blocks.length <= n) scratch.blocks.push(newDecodedBlock());
  return scratch.blocks[n]!;
}

/**
 * The seed terms: the rarest, and the next rarest while they hold at most about
 * {@link SEED_POSTINGS} postings together; never all of them (that would be the whole query).
 */
function seedSlots(terms: readonly TermInfo[]): number[] {
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
function keepingRows(reader: PostingsReader, termIds: ReadonlySet<number>): PostingsReader {
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
function seedThreshold(reader: PostingsReader, terms: readonly TermInfo[], seeds: readonly number[], scoring: Scoring, request: RankRequest, scratch: RankScratch): number {
  if (seeds.length === 0) return -Infinity;
  const cursors = seeds.map((slot, n) => new TermCursor(reader, terms[slot]!, slot, scoring, blockOf(scratch, n)));
  const heap = new TopK(request.k);
  const offer = (score: number, doc: number) => {
    if (heap.admits(score, doc) && (request.accept === undefined || request.accept(doc))) heap.push(score, doc);
  };
  const postings = seeds.reduce((sum, slot) => sum + terms[slot]!.stored.df, 0);
  if (postings * WINDOW >= SEED_POSTINGS_PER_WINDOW * scoring.chunks) {
    const { touched, positions, sums } = scratch;
    for (;;) {
      let from = END;
      for (const cursor of cursors) from = Math.min(from, cursor.lowerBound());
      if (from === END) break;
      const stamp = nextStamp(scratch);
      let touchedCount = 0;
      cursors.forEach((cursor, n) => (touchedCount = cursor.readWindow(from, from + WINDOW - 1, scratch, n * WINDOW, stamp, touchedCount)));
      positions.subarray(0, touchedCount).sort();
      for (let next = 0; next < touchedCount; next += 1) {
        const at = positions[next]!;
        touched[at] = 0;
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
  // Per chunk of a window: whether an essential term holds it and the sum of their contributions
  // (zeroed again as they are read); each term read in the window's contribution (a column of
  // WINDOW per term, sized by topByBm25), valid where its stamp is the window's.
  const { touched, positions, sums, cells, stamps } = scratch;
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
    let touchedCount = 0;
    for (let n = partition; n < count; n += 1) touchedCount = cursors[n]!.readWindow(from, windowEnd, scratch, n * WINDOW, stamp, touchedCount);
    // The non-essential terms with few postings here for the chunks that would look them up are
    // read the same way (making no chunk a candidate), from the largest bound down: terms from
    // `scanFrom` on have their contributions in `cells`, the others are looked up per chunk.
    let scanFrom = partition;
    while (scanFrom > 0 && cursors[scanFrom - 1]!.postingsUpTo(windowEnd, touchedCount * SCAN_RATIO) <= touchedCount * SCAN_RATIO) {
      scanFrom -= 1;
      cursors[scanFrom]!.readWindow(from, windowEnd, scratch, scanFrom * WINDOW, stamp);
    }
    // In id order: the positions sorted when few, else the whole window scanned.
    const span = windowEnd - from + 1;
    const sparse = touchedCount * 16 < span;
    if (sparse) positions.subarray(0, touchedCount).sort();
    for (let next = 0, end = sparse ? touchedCount : span; next < end; next += 1) {
      const at = sparse ? positions[next]! : next;
      if (touched[at] === 0) continue;
      touched[at] = 0;
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
    }
  }
  return heap.sorted();
}

