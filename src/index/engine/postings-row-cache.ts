import type { PostingsReader, StoredTerm } from './postings-store.ts';
import { rowIdOf } from './postings-store.ts';

/**
 * Postings rows kept between the searches of one index, so that the rows of terms many
 * questions share (`countri`, `s`, `war`) are read from SQLite once rather than by every search:
 * reading a row (about 9 KB) through better-sqlite3 costs 5-14 µs even when SQLite has its pages
 * cached, a look-up here well under one. The rows are those of one version of the data
 * ({@link RowCache.use} empties the cache when the version changes): the first `maxBytes` of
 * rows read are kept, and once it is full no more are added. The rows are copied into slabs of
 * {@link SLAB_BYTES} (a few allocations rather than one buffer per row): memory outside the JS
 * heap that grows row by row makes V8 run full garbage collections, 2-5 ms each, in the
 * searches that fill the cache. (Dropping the least recently used row instead of keeping the
 * first ones made a search at 1M chunks slower: each row dropped came back only through a full
 * collection, 12 instead of 1 over the 258 bench questions, p99 26 -> 36 ms.)
 *
 * The terms looked up are kept the same way, for the same version, the first `maxBytes / 8` of
 * them (their skip entries; a term the store does not hold counts {@link ABSENT_TERM_BYTES}):
 * looking up a question's terms costs 70-150 µs (a statement, and a copy of every skip entry of
 * its common terms), about a sixteenth of a median search at 100k chunks.
 */
export interface RowCache {
  /**
   * Starts a search over data version `version`: the rows of another version are dropped, and
   * the cache then holds up to `maxBytes` (default: what it held before) for the new version.
   */
  use(version: string, maxBytes?: number): void;
  /** `reader` with its rows served from the cache where it holds them, and kept there once read. */
  reading(reader: PostingsReader): PostingsReader;
  /** Bytes of the rows and terms held. */
  readonly bytes: number;
}

/** Bytes of rows an index keeps between searches at least (and by default). */
export const ROW_CACHE_BYTES = 32 * 1024 * 1024;
/** Bytes of rows an index keeps between searches at most. */
export const MAX_ROW_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * The bytes of rows to keep for an index file of `fileBytes`: an eighth of it, between
 * {@link ROW_CACHE_BYTES} and {@link MAX_ROW_CACHE_BYTES}. A file of up to 256 MB (about 190k
 * bench chunks) keeps 32 MB, which hold the rows most questions read there; at 1M chunks (1.35
 * GB, 324 MB of postings rows) the bench questions read more rows than 32 MB hold and searched
 * 13-19% faster with 128 MB (median 6.6 and 6.1 -> 5.3 ms; no faster with 256 MB). The rows
 * kept there add up to 137 MB to the searching process (224 MB at most, for files of 2 GB or more).
 *
 * @example
 * rowCacheBytesFor(1.35e9); // 168750000
 */
export function rowCacheBytesFor(fileBytes: number): number {
  return Math.max(ROW_CACHE_BYTES, Math.min(MAX_ROW_CACHE_BYTES, Math.floor(fileBytes / 8)));
}
/** Bytes of one slab the rows are copied into (a row is about 9 KB; a longer one is not kept). */
const SLAB_BYTES = 4 * 1024 * 1024;
/** What a term the store does not hold counts against the cache's bytes. */
export const ABSENT_TERM_BYTES = 64;

/**
 * A new, empty {@link RowCache} holding at most `maxBytes` of rows and `maxBytes / 8` of terms.
 *
 * @example
 * const cache = createRowCache();
 * cache.use(version);
 * topByBm25(cache.reading(reader), request);
 */
export function createRowCache(initialBytes = ROW_CACHE_BYTES): RowCache {
  let maxBytes = initialBytes;
  // By rowid, views of the slabs. A row is overwritten only once the cache was emptied, which
  // happens between searches (use): a search may hold the rows it was given to its end. The
  // slabs stay allocated for the next version's rows (one a search when every search is a new
  // version, as while an ingest runs on the same connection).
  const rows = new Map<number, Uint8Array>();
  // By term: as the store holds it, or null when it does not.
  const terms = new Map<string, StoredTerm | null>();
  const slabs: Uint8Array[] = [];
  let slabAt = -1;
  let slabUsed = 0;
  let bytes = 0;
  let termBytes = 0;
  let version: string | undefined;
  const keep = (rowId: number, row: Uint8Array) => {
    if (rows.has(rowId) || row.byteLength > SLAB_BYTES) return;
    if (slabAt < 0 || slabUsed + row.byteLength > slabs[slabAt]!.byteLength) {
      if (slabAt + 1 === slabs.length) {
        const size = Math.min(SLAB_BYTES, maxBytes - slabs.length * SLAB_BYTES);
        if (size < row.byteLength) return;
        slabs.push(new Uint8Array(size));
      }
      slabAt += 1;
      slabUsed = 0;
    }
    const view = slabs[slabAt]!.subarray(slabUsed, slabUsed + row.byteLength);
    view.set(row);
    slabUsed += row.byteLength;
    rows.set(rowId, view);
    bytes += row.byteLength;
  };
  return {
    get bytes() {
      return bytes + termBytes;
    },
    use(wanted, wantedBytes = maxBytes) {
      if (wanted === version) return;
      if (wantedBytes !== maxBytes) {
        maxBytes = wantedBytes;
        // The whole slabs that fit the new size are kept (a last, shorter one is made again when needed).
        const whole = Math.floor(maxBytes / SLAB_BYTES);
        while (slabs.length > whole || (slabs.length > 0 && slabs[slabs.length - 1]!.byteLength !== SLAB_BYTES)) slabs.pop();
      }
      rows.clear();
      terms.clear();
      slabAt = -1;
      slabUsed = 0;
      bytes = 0;
      termBytes = 0;
      version = wanted;
    },
    reading(reader) {
      return {
        ...reader,
        terms(wanted) {
          const found = new Map<string, StoredTerm>();
          const missing: string[] = [];
          for (const term of wanted) {
            const stored = terms.get(term);
            if (stored === undefined) missing.push(term);
            else if (stored !== null) found.set(term, stored);
          }
          if (missing.length === 0) return found;
          const read = reader.terms(missing);
          for (const term of missing) {
            const stored = read.get(term);
            if (stored !== undefined) found.set(term, stored);
            const size = stored === undefined ? ABSENT_TERM_BYTES : stored.skips.byteLength;
            if (termBytes + size > maxBytes / 8) continue;
            terms.set(term, stored ?? null);
            termBytes += size;
          }
          return found;
        },
        rows(termId, fromKey, limit) {
          // The cached rows from `fromKey` on while their keys follow one another; SQLite for the rest.
          const found: Array<[number, Uint8Array]> = [];
          for (let key = fromKey; found.length < limit; key += 1) {
            const rowId = rowIdOf(termId, key);
            const row = rows.get(rowId);
            if (row === undefined) break;
            found.push([key, row]);
          }
          if (found.length > 0) return found;
          const read = reader.rows(termId, fromKey, limit);
          for (const [key, row] of read) keep(rowIdOf(termId, key), row);
          return read;
        },
      };
    },
  };
}
