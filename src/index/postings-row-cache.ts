import type { PostingsReader } from './postings-store.ts';
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
 */
export interface RowCache {
  /** Starts a search over data version `version`: the rows of another version are dropped. */
  use(version: string): void;
  /** `reader` with its rows served from the cache where it holds them, and kept there once read. */
  reading(reader: PostingsReader): PostingsReader;
  /** Bytes of the rows held. */
  readonly bytes: number;
}

/** Bytes of rows an index keeps between searches by default. */
export const ROW_CACHE_BYTES = 32 * 1024 * 1024;
/** Bytes of one slab the rows are copied into (a row is about 9 KB; a longer one is not kept). */
const SLAB_BYTES = 4 * 1024 * 1024;

/**
 * A new, empty {@link RowCache} holding at most `maxBytes` of rows.
 *
 * @example
 * const cache = createRowCache();
 * cache.use(version);
 * topByBm25(cache.reading(reader), request);
 */
export function createRowCache(maxBytes = ROW_CACHE_BYTES): RowCache {
  // By rowid, views of the slabs. A row is overwritten only once the cache was emptied, which
  // happens between searches (use): a search may hold the rows it was given to its end. The
  // slabs stay allocated for the next version's rows (one a search when every search is a new
  // version, as while an ingest runs on the same connection).
  const rows = new Map<number, Uint8Array>();
  const slabs: Uint8Array[] = [];
  let slabAt = -1;
  let slabUsed = 0;
  let bytes = 0;
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
      return bytes;
    },
    use(wanted) {
      if (wanted === version) return;
      rows.clear();
      slabAt = -1;
      slabUsed = 0;
      bytes = 0;
      version = wanted;
    },
    reading(reader) {
      return {
        ...reader,
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
