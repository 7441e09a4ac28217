import { AtlasError } from '../../errors.ts';
import { COLUMN_COUNT } from './postings-codec.ts';
import type { Fts5Tokenizer } from '../analysis/fts5-tokens.ts';
import { SpanNumbers } from './span-numbers.ts';

/**
 * The terms of one chunk, as the ingest derives them ({@link TermDictionary.chunkTerms}): its distinct tokens
 * as numbers of the {@link TermDictionary} that derived them (in order of first occurrence),
 * their counts per column ({@link COLUMN_COUNT} per term, in that order) and its length in tokens.
 */
export interface ChunkTerms {
  ids: Uint32Array;
  counts: Uint32Array;
  length: number;
}

/**
 * The terms a {@link TermDictionary} numbered for the first time since it was last asked:
 * `terms[k]` has number `first + k`. Whoever reads the dictionary's numbers (the postings
 * writer) must be given every such list of `source`, in order, before the numbers in it.
 */
export interface NewTerms {
  /** The dictionary that numbered them (unique within the process). */
  source: string;
  first: number;
  terms: string[];
}

/**
 * Numbers the terms of one ingest's chunks (one per thread that derives them), so that a chunk's
 * terms travel and are looked up as numbers: a string is hashed once per thread, not once per
 * chunk it occurs in.
 */
export interface TermDictionary {
  readonly source: string;
  /** The term numbered `id`. */
  term(id: number): string;
  /** The terms numbered since the last call (or since the dictionary was made). */
  takeNew(): NewTerms;
  /**
   * The {@link ChunkTerms} of a chunk from the text of its searched columns, in the order of the
   * BM25 weights (title, heading, the headings between, body, identifier expansions), tokenized
   * as FTS5 would, its terms numbered here: what the postings store indexes for it.
   *
   * @example
   * const terms = dictionary.chunkTerms(['Retries', 'Backoff', '', 'Retries back off.', ''], tokenizer);
   * [...terms.ids].map((id) => dictionary.term(id)); // ['retri', 'backoff', 'back', 'off']
   */
  chunkTerms(columns: readonly string[], tokenizer: Fts5Tokenizer): ChunkTerms;
}

/** Entries (4 bytes each) of one arena of {@link TermDictionary.chunkTerms}'s results: 256 KB. */
const ARENA_ENTRIES = 1 << 16;

/** Most folded tokens a {@link TermDictionary} remembers the numbers of before it starts over. */
const FOLDED_CACHE_SIZE = 1 << 19;

/**
 * A new, empty {@link TermDictionary} named `source`: a name no other dictionary of the process
 * has (a worker thread's id, say).
 *
 * @example
 * const dictionary = createTermDictionary('worker-1');
 * dictionary.chunkTerms(['Retries', '', '', 'Retries back off.', ''], tokenizer).ids; // Uint32Array [0, 1, 2]
 * dictionary.takeNew(); // { source: 'worker-1', first: 0, terms: ['retri', 'back', 'off'] }
 */
export function createTermDictionary(source: string): TermDictionary {
  const numbers = new Map<string, number>();
  const names: string[] = [];
  let reported = 0;
  // Per term number: the chunk (a counter) it was last seen in, and its slot in that chunk.
  let seenIn = new Int32Array(1024).fill(-1);
  let slotOf = new Int32Array(1024);
  let chunk = 0;
  // Folded token -> term number, for the tokenizer `foldedBy`: one lookup per token, the stemming
  // only for a folded form not seen yet. Starts over past FOLDED_CACHE_SIZE entries.
  const byFolded = new Map<string, number>();
  // The same for ASCII tokens, found from their characters in the text (no string made).
  const bySpan = new SpanNumbers();
  let foldedBy: Fts5Tokenizer | undefined;

  const numberOf = (token: string): number => {
    let id = numbers.get(token);
    if (id === undefined) {
      id = names.length;
      numbers.set(token, id);
      names.push(token);
      if (id >= seenIn.length) {
        const grownSeen = new Int32Array(seenIn.length * 2).fill(-1);
        grownSeen.set(seenIn);
        seenIn = grownSeen;
        const grownSlots = new Int32Array(slotOf.length * 2);
        grownSlots.set(slotOf);
        slotOf = grownSlots;
      }
    }
    return id;
  };

  // Where the chunks' ids and counts are copied to, as views: one buffer for many chunks instead
  // of two per chunk (a typed array's own buffer costs an allocation outside the heap). A view
  // keeps its whole arena alive, so an arena is small; a new one is started when it is full.
  let arena = new Uint32Array(ARENA_ENTRIES);
  let arenaUsed = 0;
  const take = (from: Uint32Array, count: number): Uint32Array => {
    if (count > ARENA_ENTRIES / 4) return from.slice(0, count);
    if (arenaUsed + count > ARENA_ENTRIES) {
      arena = new Uint32Array(ARENA_ENTRIES);
      arenaUsed = 0;
    }
    const view = arena.subarray(arenaUsed, arenaUsed + count);
    view.set(from.subarray(0, count));
    arenaUsed += count;
    return view;
  };

  // The chunk being numbered (see chunkTerms): its terms by slot, their counts, the column read.
  let ids = new Uint32Array(64);
  let counts = new Uint32Array(64 * COLUMN_COUNT);
  let distinct = 0;
  let length = 0;
  let column = 0;
  const visitFolded = (folded: string): void => {
    let id = byFolded.get(folded);
    if (id === undefined) {
      id = numberOf(foldedBy!.termOf(folded));
      if (byFolded.size >= FOLDED_CACHE_SIZE) byFolded.clear();
      byFolded.set(folded, id);
    }
    countTerm(id);
  };
  const visitSpan = (text: string, start: number, end: number, hash: number, upper: boolean): void => {
    let id = bySpan.find(text, start, end, hash, upper);
    if (id < 0) {
      const folded = upper ? text.slice(start, end).toLowerCase() : text.slice(start, end);
      id = numberOf(foldedBy!.termOf(folded));
      if (bySpan.size >= FOLDED_CACHE_SIZE) bySpan.clear();
      bySpan.insert(folded, hash, id);
    }
    countTerm(id);
  };
  /** One more occurrence of term `id` in the column being read. */
  const countTerm = (id: number): void => {
    length += 1;
    let slot: number;
    if (seenIn[id] === chunk) slot = slotOf[id]!;
    else {
      slot = distinct++;
      seenIn[id] = chunk;
      slotOf[id] = slot;
      if (slot >= ids.length) {
        const grownIds = new Uint32Array(ids.length * 2);
        grownIds.set(ids);
        ids = grownIds;
        const grown = new Uint32Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
      }
      ids[slot] = id;
    }
    const at = slot * COLUMN_COUNT + column;
    counts[at] = counts[at]! + 1;
  };

  return {
    source,
    term(id) {
      const name = names[id];
      if (name === undefined) throw new AtlasError('internal', `Atlas: term dictionary ${source} has no term number ${id} (it numbered ${names.length}). Derive the chunk's terms with this dictionary.`);
      return name;
    },
    takeNew() {
      const fresh: NewTerms = { source, first: reported, terms: names.slice(reported) };
      reported = names.length;
      return fresh;
    },
    chunkTerms(columns, tokenizer) {
      chunk += 1;
      distinct = 0;
      length = 0;
      if (tokenizer !== foldedBy) {
        byFolded.clear();
        bySpan.clear();
        foldedBy = tokenizer;
      }
      for (column = 0; column < COLUMN_COUNT; column += 1) {
        const text = columns[column] ?? '';
        if (text !== '') tokenizer.forEachFoldedSpan(text, visitSpan, visitFolded);
      }
      const terms: ChunkTerms = { ids: take(ids, distinct), counts: take(counts, distinct * COLUMN_COUNT), length };
      counts.fill(0, 0, distinct * COLUMN_COUNT);
      return terms;
    },
  };
}
