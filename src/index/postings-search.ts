import { COLUMN_COUNT, decodeBlock, newDecodedBlock, SKIP_OFFSET, SKIP_WORDS, type DecodedBlock } from './postings-codec.ts';
import type { PostingsReader, StoredTerm } from './postings-store.ts';

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

/** FTS5's BM25 parameters (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;
/** Bounds are raised by this factor, so float rounding in a sum never makes a bound fall below a score it bounds. */
const SLACK = 1 + 1e-9;
/** Rows (of 8 blocks) read per statement at first; doubled while a term is read in order, up to {@link MAX_PREFETCH}. */
const MIN_PREFETCH = 1;
const MAX_PREFETCH = 64;
/** The seed pass reads the rarest terms up to about this many postings. */
const SEED_POSTINGS = 4_096;
const END = Number.MAX_SAFE_INTEGER;

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
 * - **Seed**: a first θ from the rarest terms alone (a chunk scores at least their part of its
 *   score), so pruning starts before the first k chunks are found.
 * `accept` (the filter) is asked only for a chunk that would enter the top k, so filters apply
 * before the cut.
 *
 * @example
 * topByBm25(createPostingsReader(db), { tokens: ['retri', 'backoff'], weights: [2, 3, 0.5, 1, 1], k: 10 });
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
  const floor = seedThreshold(reader, terms, scoring, request, exact);
  return maxScore(reader, terms, scoring, request, exact, floor);
}

interface TermInfo {
  stored: StoredTerm;
  /** How many of the query's phrases are this term. */
  multiplicity: number;
  /** FTS5's IDF: log((N - df + 0.5) / (df + 0.5)), at least 1e-6. */
  idf: number;
}

interface Scoring {
  weights: ArrayLike<number>;
  averageLength: number;
  chunks: number;
  stats?: RankStats;
}

/**
 * The k-th best score over the rarest terms alone (the chunks they hold, filter applied), or
 * -Infinity: a lower bound of the k-th best full score, since no term lowers a score.
 */
function seedThreshold(
  reader: PostingsReader,
  terms: readonly TermInfo[],
  scoring: Scoring,
  request: RankRequest,
  exact: (contributions: Float64Array) => number,
): number {
  if (terms.length < 2) return -Infinity;
  const byRarity = terms.map((term, slot) => ({ slot, df: term.stored.df })).sort((a, b) => a.df - b.df);
  const seeds: number[] = [];
  let postings = 0;
  // The rarest term, and the next rarest while they stay few; never all of them (that would be the whole query).
  for (const { slot, df } of byRarity.slice(0, -1)) {
    if (seeds.length > 0 && postings + df > SEED_POSTINGS) break;
    seeds.push(slot);
    postings += df;
  }
  const cursors = seeds.map((slot) => new TermCursor(reader, terms[slot]!, slot, scoring));
  const contributions = new Float64Array(terms.length);
  const heap = new TopK(request.k);
  for (;;) {
    let doc = END;
    for (const cursor of cursors) doc = Math.min(doc, cursor.doc());
    if (doc === END) break;
    contributions.fill(0);
    for (const cursor of cursors) {
      if (cursor.doc() !== doc) continue;
      contributions[cursor.slot] = cursor.contribution();
      cursor.next();
    }
    const score = exact(contributions);
    if (heap.admits(score, doc) && (request.accept === undefined || request.accept(doc))) heap.push(score, doc);
  }
  return heap.full() ? heap.worstScore() : -Infinity;
}

/** Document-at-a-time MaxScore with block-max skipping (see {@link topByBm25}). */
function maxScore(
  reader: PostingsReader,
  terms: readonly TermInfo[],
  scoring: Scoring,
  request: RankRequest,
  exact: (contributions: Float64Array) => number,
  floor: number,
): ScoredId[] {
  const cursors = terms.map((term, slot) => new TermCursor(reader, term, slot, scoring)).sort((a, b) => a.maxBound - b.maxBound);
  const count = cursors.length;
  // upTo[i]: the most that cursors 0..i add to a score together.
  const upTo = new Float64Array(count);
  cursors.forEach((cursor, n) => (upTo[n] = (n === 0 ? 0 : upTo[n - 1]!) + cursor.maxBound));
  const heap = new TopK(request.k);
  const contributions = new Float64Array(count);
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
    while (firstEssential === partition) {
      let doc = END;
      for (let n = partition; n < count; n += 1) {
        const cursor = cursors[n]!;
        if (cursor.lowerBound() <= windowEnd) doc = Math.min(doc, cursor.doc());
      }
      if (doc > windowEnd) break;
      if (request.stats) request.stats.candidates = (request.stats.candidates ?? 0) + 1;
      contributions.fill(0);
      let score = 0;
      for (let n = partition; n < count; n += 1) {
        const cursor = cursors[n]!;
        if (cursor.lowerBound() !== doc) continue;
        const contribution = cursor.contribution();
        contributions[cursor.slot] = contribution;
        score += contribution * cursor.multiplicity;
        cursor.next();
      }
      let possible = true;
      for (let n = partition - 1; n >= 0; n -= 1) {
        if (score + upTo[n]! < cut) {
          possible = false;
          break;
        }
        const cursor = cursors[n]!;
        if (request.stats) request.stats.probes = (request.stats.probes ?? 0) + 1;
        if (cursor.advance(doc) !== doc) continue;
        const contribution = cursor.contribution();
        contributions[cursor.slot] = contribution;
        score += contribution * cursor.multiplicity;
      }
      if (!possible || score < cut) continue;
      const full = exact(contributions);
      if (full < floor || !heap.admits(full, doc)) continue;
      if (request.accept !== undefined && !request.accept(doc)) continue;
      heap.push(full, doc);
      raise();
    }
  }
  return heap.sorted();
}

/** `threshold` minus a relative 1e-12 (-Infinity stays -Infinity). */
function lowered(threshold: number): number {
  return threshold - Math.abs(threshold) * 1e-12;
}

/**
 * A cursor over one term's postings in id order: block skipping through the skip entries, blocks
 * read in batches and decoded only when one of their chunks is asked for.
 *
 * Its position is a block and, once decoded, a posting in it. {@link TermCursor.shallowAdvance}
 * moves to a block without decoding it: then {@link TermCursor.lowerBound} is all that is known
 * of the current chunk, until {@link TermCursor.doc} decodes the block.
 */
class TermCursor {
  readonly slot: number;
  readonly multiplicity: number;
  /** The term's largest contribution to a score (all its phrases), raised by {@link SLACK}. */
  readonly maxBound: number;
  private readonly reader: PostingsReader;
  private readonly termId: number;
  private readonly skips: Uint32Array;
  private readonly blockCount: number;
  private readonly bounds: Float64Array;
  private readonly idf: number;
  private readonly scoring: Scoring;
  private readonly decoded: DecodedBlock = newDecodedBlock();
  private readonly fetched = new Map<number, Uint8Array>();
  private fetchedUpTo = -1;
  private prefetch = MIN_PREFETCH;
  private block = 0;
  /** Which block `decoded` holds (-1: none). */
  private decodedBlock = -1;
  private position = 0;
  /** The current chunk is at least this id. */
  private target = 0;

  constructor(reader: PostingsReader, term: TermInfo, slot: number, scoring: Scoring) {
    this.reader = reader;
    this.slot = slot;
    this.multiplicity = term.multiplicity;
    this.scoring = scoring;
    this.termId = term.stored.id;
    this.skips = term.stored.skips;
    this.blockCount = this.skips.length / SKIP_WORDS;
    this.idf = term.idf;
    this.bounds = new Float64Array(this.blockCount);
    let max = 0;
    for (let n = 0; n < this.blockCount; n += 1) {
      const at = n * SKIP_WORDS;
      let frequency = 0;
      for (let column = 0; column < COLUMN_COUNT; column += 1) frequency += scoring.weights[column]! * this.skips[at + 4 + column]!;
      const bound = this.score(frequency, this.skips[at + 3]!) * this.multiplicity * SLACK;
      this.bounds[n] = bound;
      if (bound > max) max = bound;
    }
    this.maxBound = max;
  }

  /** Whether the postings are exhausted. */
  done(): boolean {
    return this.block >= this.blockCount;
  }

  /** The current chunk id (decoding its block if needed), or END. */
  doc(): number {
    if (this.block >= this.blockCount) return END;
    if (this.decodedBlock !== this.block) {
      this.load(this.block);
      const { ids, count } = this.decoded;
      let position = 0;
      while (position < count && ids[position]! < this.target) position += 1;
      this.position = position;
    }
    return this.decoded.ids[this.position]!;
  }

  /** What is known of the current chunk id without decoding: at least this (END when exhausted). */
  lowerBound(): number {
    if (this.block >= this.blockCount) return END;
    if (this.decodedBlock === this.block) return this.decoded.ids[this.position]!;
    return this.target;
  }

  /** The current chunk's contribution for one phrase of this term (after {@link TermCursor.doc}). */
  contribution(): number {
    return this.score(this.decoded.frequencies[this.position]!, this.decoded.lengths[this.position]!);
  }

  blockBound(): number {
    return this.bounds[this.block]!;
  }

  blockLastId(): number {
    return this.skips[this.block * SKIP_WORDS + 1]!;
  }

  /** To the next posting (the current one was read with {@link TermCursor.doc}). */
  next(): void {
    this.position += 1;
    if (this.position < this.decoded.count) return;
    this.block += 1;
    this.target = this.skips[(this.block - 1) * SKIP_WORDS + 1]! + 1;
  }

  /** To the block that holds the first chunk with id >= target, without decoding it. */
  shallowAdvance(target: number): void {
    if (this.lowerBound() >= target) return;
    let block = this.block;
    while (block < this.blockCount && this.skips[block * SKIP_WORDS + 1]! < target) block += 1;
    if (block !== this.block || this.decodedBlock !== block) {
      this.block = block;
      this.target = target;
      return;
    }
    // The decoded block holds it: move within.
    const { ids, count } = this.decoded;
    let position = this.position;
    while (position < count && ids[position]! < target) position += 1;
    this.position = position;
  }

  /** To the first chunk with id >= target; returns it (or END). */
  advance(target: number): number {
    this.shallowAdvance(target);
    return this.doc();
  }

  /** BM25's part for one phrase, as fts5_aux.c computes it. */
  private score(frequency: number, length: number): number {
    return this.idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * length) / this.scoring.averageLength)));
  }

  private load(block: number): void {
    const at = block * SKIP_WORDS;
    const key = this.skips[at]!;
    let row = this.fetched.get(key);
    if (row === undefined) {
      // Rows read in order come in growing batches; a jump starts over with one.
      this.prefetch = key === this.fetchedUpTo + 1 ? Math.min(this.prefetch * 2, MAX_PREFETCH) : MIN_PREFETCH;
      this.fetched.clear();
      for (const [rowKey, bytes] of this.reader.rows(this.termId, key, this.prefetch)) {
        this.fetched.set(rowKey, bytes);
        this.fetchedUpTo = rowKey;
      }
      row = this.fetched.get(key)!;
    }
    const offset = this.skips[at + SKIP_OFFSET]!;
    decodeBlock(row.subarray(offset, offset + this.skips[at + SKIP_OFFSET + 1]!), this.scoring.weights, this.decoded);
    if (this.scoring.stats !== undefined) this.scoring.stats.decoded += this.decoded.count;
    this.decodedBlock = block;
  }
}

/** The best k (score, id) pairs: a binary min-heap whose root is the worst (lowest score, then largest id). */
class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
    this.ids = new Float64Array(k);
  }

  full(): boolean {
    return this.size === this.k;
  }

  worstScore(): number {
    return this.scores[0]!;
  }

  /** Whether (score, id) would enter: the heap is not full, or it beats the worst. */
  admits(score: number, id: number): boolean {
    if (this.size < this.k) return true;
    return score > this.scores[0]! || (score === this.scores[0]! && id < this.ids[0]!);
  }

  push(score: number, id: number): void {
    if (this.size < this.k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.worse(score, id, this.scores[parent]!, this.ids[parent]!)) break;
        this.scores[at] = this.scores[parent]!;
        this.ids[at] = this.ids[parent]!;
        at = parent;
      }
      this.scores[at] = score;
      this.ids[at] = id;
      return;
    }
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.worse(this.scores[right]!, this.ids[right]!, this.scores[left]!, this.ids[left]!) ? right : left;
      if (!this.worse(this.scores[child]!, this.ids[child]!, score, id)) break;
      this.scores[at] = this.scores[child]!;
      this.ids[at] = this.ids[child]!;
      at = child;
    }
    this.scores[at] = score;
    this.ids[at] = id;
  }

  /** Best first: score descending, then id ascending. */
  sorted(): ScoredId[] {
    const out: ScoredId[] = [];
    for (let n = 0; n < this.size; n += 1) out.push({ id: this.ids[n]!, score: this.scores[n]! });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  private worse(scoreA: number, idA: number, scoreB: number, idB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && idA > idB);
  }
}
