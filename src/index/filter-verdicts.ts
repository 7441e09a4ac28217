import type { FilterClause } from './filter.ts';
import type { StatementCache } from './sql-rows.ts';

/**
 * Which chunks pass a filter, for the searches of one version of the data: what the SQLite search asks
 * of every chunk about to enter its top k (postings-search.ts). A chunk is checked with one
 * lookup (about 10 µs through better-sqlite3); once a range of {@link RANGE_IDS} ids has been
 * asked about {@link CHECKS_BEFORE_READING_RANGE} times, in one search or over several, the
 * whole range is read with one query (about the cost of 5 lookups) and kept as bits, so that
 * what a filter costs shrinks as an index answers more questions, whichever they are, while a
 * single search (`atlas search`) pays at most about twice the lookups it needs. The verdicts
 * are the filter's own SQL (filter.ts), so they cannot differ from it; they are dropped when the
 * data version changes, and at most {@link MAX_FILTERS} filters are kept (least recently used
 * dropped first).
 */

/** Ids per range read at once (a power of two). */
const RANGE_IDS = 256;
const RANGE_SHIFT = Math.log2(RANGE_IDS);
const CHECKS_BEFORE_READING_RANGE = 4;
const MAX_FILTERS = 8;
/** A range read whole (in `FilterState.ranges`, beside the check counts below it). */
const READ = 255;

/** One filter's verdicts: per range its check count (or READ), per id of a read range a bit. */
interface FilterState {
  ranges: Uint8Array;
  bits: Uint8Array;
}

/** Whether chunk `id` passes the filter it was made for. */
export type FilterVerdict = (id: number) => boolean;

/**
 * The verdict cache of one index over `statements`: `verdict(where, version)` is the check for
 * one search with filter `where` over data version `version` (equal versions: the same chunks
 * under the same ids; sqlite.ts derives it from the content version, other connections' commits
 * and its own ingests).
 *
 * @example
 * const verdicts = createFilterVerdicts(statements);
 * const passes = verdicts(filterClause({ version: '3.x' }, 'c', { restricted: false }), indexVersion);
 * passes(812); // true when chunk 812 applies to 3.x
 */
export function createFilterVerdicts(statements: StatementCache): (where: FilterClause, version: string) => FilterVerdict {
  let cachedVersion: string | undefined;
  const states = new Map<string, FilterState>();

  const stateOf = (where: FilterClause, version: string): FilterState => {
    if (cachedVersion !== version) {
      states.clear();
      cachedVersion = version;
    }
    const key = `${where.sql}\u0000${JSON.stringify(where.params)}`;
    let state = states.get(key);
    if (state === undefined) {
      if (states.size >= MAX_FILTERS) states.delete(states.keys().next().value!);
      state = { ranges: new Uint8Array(0), bits: new Uint8Array(0) };
    } else states.delete(key);
    states.set(key, state);
    return state;
  };

  return (where, version) => {
    const state = stateOf(where, version);
    // The narrow index of what filters read: a check reads far fewer pages than the chunk rows.
    const one = statements.get(`SELECT 1 FROM chunks c INDEXED BY chunks_for_filters WHERE c.id = ?${where.sql}`).pluck();
    const range = statements.get(`SELECT c.id FROM chunks c INDEXED BY chunks_for_filters WHERE c.id >= ? AND c.id < ?${where.sql}`).pluck();
    // This search's single checks (a chunk may be asked again after the heap changed).
    const checked = new Map<number, boolean>();
    return (id) => {
      const at = id >>> RANGE_SHIFT;
      if (at >= state.ranges.length) grow(state, at);
      const { ranges, bits } = state;
      if (ranges[at] === READ) return (bits[id >>> 3]! & (1 << (id & 7))) !== 0;
      const known = checked.get(id);
      if (known !== undefined) return known;
      if (ranges[at]! + 1 < CHECKS_BEFORE_READING_RANGE) {
        ranges[at] = ranges[at]! + 1;
        const passes = one.get(id, ...where.params) !== undefined;
        checked.set(id, passes);
        return passes;
      }
      const start = at << RANGE_SHIFT;
      for (const passing of range.all(start, start + RANGE_IDS, ...where.params) as number[]) bits[passing >>> 3] = bits[passing >>> 3]! | (1 << (passing & 7));
      ranges[at] = READ;
      return (bits[id >>> 3]! & (1 << (id & 7))) !== 0;
    };
  };
}

/** Room for range `at` (and the bits of its ids), doubling. */
function grow(state: FilterState, at: number): void {
  const length = 2 ** Math.ceil(Math.log2(at + 1));
  const ranges = new Uint8Array(length);
  ranges.set(state.ranges);
  const bits = new Uint8Array((length * RANGE_IDS) / 8);
  bits.set(state.bits);
  state.ranges = ranges;
  state.bits = bits;
}
