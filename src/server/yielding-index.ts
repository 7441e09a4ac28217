// A stream's writes reach the socket only when the event loop gets a turn. A run over a
// synchronous backend (better-sqlite3) with a synchronous model (the offline planner) never gives
// it one, so every event of the run would arrive at once, at the end. This wrapper gives the loop
// a turn before each read of the index, so each search's events go out while the run goes on.
import type { IndexBackend } from '../index/types.ts';

/** Waits for one turn of the event loop (default: `setImmediate`, after pending I/O). */
export type YieldTurn = () => Promise<void>;

const nextTurn: YieldTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The same index, each `search`, `getChunk` and `neighbors` waiting for `yieldTurn` first; every
 * other member is the index's own. For streamed runs only: a plain ask gains nothing from it.
 *
 * @example
 * await routedAsk(question, { ...options, index: yieldingIndex(options.index), onEvent: send });
 */
export function yieldingIndex(index: IndexBackend, yieldTurn: YieldTurn = nextTurn): IndexBackend {
  return Object.assign(Object.create(index) as IndexBackend, {
    search: async (...args: Parameters<IndexBackend['search']>) => {
      await yieldTurn();
      return index.search(...args);
    },
    getChunk: async (...args: Parameters<IndexBackend['getChunk']>) => {
      await yieldTurn();
      return index.getChunk(...args);
    },
    neighbors: async (...args: Parameters<IndexBackend['neighbors']>) => {
      await yieldTurn();
      return index.neighbors(...args);
    },
  });
}
