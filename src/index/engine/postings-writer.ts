import { BLOCK_SIZE, ByteWriter } from './postings-codec.ts';
import { blocksOfRow, firstBlockEndingAtOrAfter, repacked, rowsOf, withoutIds, type EncodedBlock } from './postings-blocks.ts';
import { decodeSkips, encodeSkips, ROW_BLOCKS, type BlockSummary } from './postings-skips.ts';
import type { PostingsTables, TermRow } from './postings-tables.ts';
import { AtlasError } from '../../errors.ts';
import type { ChunkTerms, NewTerms } from './chunk-terms.ts';
import { createPostingsLog } from './postings-log.ts';

/** Bytes of collected additions after which the writer writes them out (about 5 bytes a posting). */
const FLUSH_BYTES = 64 * 1024 * 1024;

/** Options of {@link createPostingsWriter}. */
export interface PostingsWriterOptions {
  /** Bytes of additions to collect before writing them out (default 64 MB); tests make it small. */
  flushBytes?: number;
}

/**
 * Writes postings inside the caller's transaction: adds and removes are collected, {@link PostingsWriter.flush}
 * writes them. Chunk terms come as numbers of a term dictionary (chunk-terms.ts), whose new terms
 * are defined here first.
 */
export interface PostingsWriter {
  /** The terms a dictionary numbered: every list of a source, in order, before a chunk uses them. */
  defineTerms(terms: NewTerms): void;
  /** Adds chunk `id`: larger than every id the store holds once the removals are applied, and than the ids added before it. */
  add(id: number, source: string, terms: ChunkTerms): void;
  /** Removes chunk `id`, which the store holds with exactly these terms. */
  remove(id: number, source: string, terms: ChunkTerms): void;
  /** Writes what was collected: removals first, then additions. */
  flush(): void;
  /**
   * The stored terms the next flush reads, each with the ids it removes from it: what a store
   * that cannot read during a flush loads before it (rowKeysToRead in postings-tables.ts).
   */
  pending(): Array<{ term: string; removed: readonly number[] }>;
}

/**
 * The {@link PostingsWriter} over `tables` (postings-tables.ts). Added ids must be larger than every id the store holds
 * once the removals before them are applied, as SQLite's rowids of new chunk rows are.
 *
 * @example
 * const writer = createPostingsWriter(createSqlitePostingsTables(db));
 * const terms = dictionary.chunkTerms(columns, tokenizer);
 * writer.defineTerms(dictionary.takeNew());
 * writer.add(1, dictionary.source, terms);
 * writer.flush();
 */
export function createPostingsWriter(tables: PostingsTables, options: PostingsWriterOptions = {}): PostingsWriter {
  const flushBytes = options.flushBytes ?? FLUSH_BYTES;
  // The writer's terms by index (for the writer's lifetime), and per dictionary source its
  // numbers' indexes: a chunk's terms are mapped by array lookups, no string hashing.
  const termIndex = new Map<string, number>();
  const termNames: string[] = [];
  const sources = new Map<string, number[]>();
  // Additions since the last flush: one record per posting in `log` (postings-log.ts), postings
  // per term index. Grouped by term only when flushed: an append per posting to a few buffers
  // instead of one per term.
  let termPostings: number[] = [];
  const log = createPostingsLog();
  // Where each new term's blocks are encoded, then stored straight from (better-sqlite3 copies a bound blob).
  const scratch = new ByteWriter(1 << 16);
  // Where a block is written again without its removed postings.
  const blockScratch = new ByteWriter(1 << 12);
  let removals = new Map<number, number[]>();
  // Whether the store held no term when the writer was made (a new index, a rebuild): then a term
  // is only stored once this writer flushed it, and a bulk load skips one lookup per term.
  const startedEmpty = tables.isEmpty();
  const flushedTerms = new Set<number>();
  let chunkDelta = 0;
  let tokenDelta = 0;

  const storedRow = (termId: number, key: number): Uint8Array => {
    const bytes = tables.row(termId, key);
    if (bytes === undefined) throw new AtlasError('internal', `Atlas: the postings store has no row ${key} of term ${termId}, which its skip entries name. Rebuild the index (--rebuild).`);
    return bytes;
  };
  const indexesOf = (source: string, terms: ChunkTerms): number[] => {
    const indexes = sources.get(source);
    if (indexes === undefined) throw new AtlasError('internal', `Atlas: the postings writer has no terms of dictionary ${source}. Call defineTerms with its new terms before adding its chunks.`);
    const ids = terms.ids;
    for (let n = 0; n < ids.length; n += 1) {
      if (ids[n]! >= indexes.length) {
        throw new AtlasError('internal', `Atlas: the postings writer has ${indexes.length} terms of dictionary ${source}, a chunk uses number ${ids[n]}. Define each page's new terms (NewTerms) in order, also of pages skipped.`);
      }
    }
    return indexes;
  };
  /** Writes `blocks` as rows from row key `key` on; returns their summaries. */
  const writeRows = (termId: number, key: number, blocks: readonly EncodedBlock[]): BlockSummary[] =>
    rowsOf(blocks, key).flatMap((row) => {
      tables.putRow(termId, row.key, row.bytes);
      return row.summaries;
    });

  const flushRemovals = () => {
    for (const [index, ids] of removals) {
      const term = termNames[index]!;
      const row = tables.term(term);
      if (row === undefined) continue;
      const blocks = decodeSkips(row.skips);
      const dead = new Set(ids);
      // The blocks holding a removed id, by the key of their row.
      const touched = new Map<number, Set<number>>();
      for (const id of ids) {
        const at = firstBlockEndingAtOrAfter(blocks, id);
        if (at === blocks.length) continue;
        const key = blocks[at]!.key;
        let holding = touched.get(key);
        if (holding === undefined) touched.set(key, (holding = new Set()));
        holding.add(at);
      }
      let removed = 0;
      const rewritten = new Map<number, BlockSummary[]>();
      for (const [key, holding] of touched) {
        // Only the blocks holding a removed id are written again (filtered byte by byte); the
        // row's other blocks are copied as they are.
        const bytes = storedRow(row.id, key);
        const parts: EncodedBlock[] = [];
        let kept = 0;
        for (const at of blocksOfRow(blocks, holding.values().next().value!)) {
          const block = blocks[at]!;
          const stored = bytes.subarray(block.offset, block.offset + block.length);
          if (!holding.has(at)) {
            parts.push({ bytes: stored, summary: block });
            kept += block.count;
            continue;
          }
          const left = withoutIds(stored, dead, blockScratch);
          removed += block.count - left.count;
          kept += left.count;
          if (left.count > 0) parts.push({ bytes: blockScratch.take(), summary: left });
        }
        if (kept === 0) {
          tables.deleteRow(row.id, key);
          rewritten.set(key, []);
          continue;
        }
        // A row whose blocks are less than half full on average is packed again into full
        // blocks, so that updates over time do not leave a term in many small blocks.
        const packed = parts.length > 2 * Math.ceil(kept / BLOCK_SIZE) ? repacked(parts) : parts;
        rewritten.set(key, writeRows(row.id, key, packed));
      }
      const df = row.df - removed;
      if (df <= 0) {
        tables.deleteRows(row.id);
        tables.deleteTerm(term);
        continue;
      }
      const next: BlockSummary[] = [];
      for (const block of blocks) {
        const replaced = rewritten.get(block.key);
        if (replaced === undefined) next.push(block);
        else if (replaced.length > 0) {
          next.push(...replaced);
          rewritten.set(block.key, []);
        }
      }
      tables.updateTerm(term, df, encodeSkips(next));
    }
    removals = new Map();
  };

  const flushAdditions = (nextTermId: number): number => {
    let next = nextTermId;
    log.drain(termPostings, scratch, (index, encoded) => {
      const count = termPostings[index]!;
      const term = termNames[index]!;
      const row: TermRow | undefined = startedEmpty && !flushedTerms.has(index) ? undefined : tables.term(term);
      if (startedEmpty) flushedTerms.add(index);
      if (row === undefined) {
        const id = next++;
        // Rows of ROW_BLOCKS consecutive blocks of the scratch, their offsets made relative to the row.
        for (let start = 0; start < encoded.length; start += ROW_BLOCKS) {
          const key = start / ROW_BLOCKS;
          const rowStart = encoded[start]!.offset;
          const last = encoded[Math.min(start + ROW_BLOCKS, encoded.length) - 1]!;
          tables.putRow(id, key, scratch.bytes.subarray(rowStart, last.offset + last.length));
          for (let at = start; at < start + ROW_BLOCKS && at < encoded.length; at += 1) {
            encoded[at]!.key = key;
            encoded[at]!.offset -= rowStart;
          }
        }
        tables.insertTerm(term, { id, df: count, skips: encodeSkips(encoded) });
        return;
      }
      const added = encoded.map((summary): EncodedBlock => ({ bytes: scratch.bytes.subarray(summary.offset, summary.offset + summary.length), summary }));
      // Appended to the term's last row (rewritten with the new postings) and rows after it: the
      // row's blocks copied as they are, but a last block short of BLOCK_SIZE, which is filled
      // up with the first new postings.
      const blocks = decodeSkips(row.skips);
      const last = blocks.length - 1;
      const lastRow = last < 0 ? [] : blocksOfRow(blocks, last);
      const bytes = last < 0 ? undefined : storedRow(row.id, blocks[last]!.key);
      const parts: EncodedBlock[] = [];
      let short: EncodedBlock | undefined;
      for (const at of lastRow) {
        const block = blocks[at]!;
        const stored = { bytes: bytes!.subarray(block.offset, block.offset + block.length), summary: block };
        if (at === last && block.count < BLOCK_SIZE) short = stored;
        else parts.push(stored);
      }
      parts.push(...(short === undefined ? added : repacked([short, ...added])));
      const summaries = writeRows(row.id, last < 0 ? 0 : blocks[last]!.key, parts);
      tables.updateTerm(term, row.df + count, encodeSkips([...blocks.slice(0, lastRow[0] ?? 0), ...summaries]));
    });
    termPostings = new Array<number>(termNames.length).fill(0);
    return next;
  };

  const writer: PostingsWriter = {
    defineTerms(fresh) {
      let indexes = sources.get(fresh.source);
      if (indexes === undefined) sources.set(fresh.source, (indexes = []));
      if (fresh.first !== indexes.length) {
        throw new AtlasError('internal', `Atlas: dictionary ${fresh.source} defines terms from number ${fresh.first}, the postings writer expected ${indexes.length}. Define each page's new terms in the order they were numbered.`);
      }
      for (const term of fresh.terms) {
        let index = termIndex.get(term);
        if (index === undefined) {
          index = termNames.length;
          termIndex.set(term, index);
          termNames.push(term);
          termPostings.push(0);
        }
        indexes.push(index);
      }
    },
    add(id, source, terms) {
      chunkDelta += 1;
      tokenDelta += terms.length;
      const indexes = indexesOf(source, terms);
      for (const number of terms.ids) {
        const index = indexes[number]!;
        termPostings[index] = termPostings[index]! + 1;
      }
      log.appendChunk(id, indexes, terms);
      if (log.size > flushBytes) writer.flush();
    },
    remove(id, source, terms) {
      chunkDelta -= 1;
      tokenDelta -= terms.length;
      const indexes = indexesOf(source, terms);
      for (const number of terms.ids) {
        const index = indexes[number]!;
        let ids = removals.get(index);
        if (ids === undefined) removals.set(index, (ids = []));
        ids.push(id);
      }
    },
    pending() {
      const found: Array<{ term: string; removed: readonly number[] }> = [];
      termNames.forEach((term, index) => {
        const removed = removals.get(index);
        const read = removed !== undefined || (termPostings[index]! > 0 && (!startedEmpty || flushedTerms.has(index)));
        if (read) found.push({ term, removed: removed ?? [] });
      });
      return found;
    },
    flush() {
      const totals = tables.totals();
      flushRemovals();
      const next = flushAdditions(totals.nextTermId);
      tables.writeTotals({ chunks: totals.chunks + chunkDelta, tokens: totals.tokens + tokenDelta, nextTermId: next });
      chunkDelta = 0;
      tokenDelta = 0;
    },
  };
  return writer;
}
