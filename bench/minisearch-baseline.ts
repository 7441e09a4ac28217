import MiniSearch from 'minisearch';
import type { Chunk } from '../src/corpus/types.ts';
import { STOPWORDS } from '../src/index/analysis/tokenize.ts';
import type { SearchFilter } from '../src/index/types.ts';

/** The in-memory baseline: MiniSearch over the same chunks, same boosts as the SQLite defaults. */
export interface MiniSearchBaseline {
  search(query: string, options: { k: number; filter?: SearchFilter }): string[];
}

/**
 * Indexes chunks in MiniSearch (title, heading, text; heading boosted 3, title 2; OR of terms;
 * the same stopwords dropped, as its docs suggest via processTerm; version filter applied to
 * results, as MiniSearch has no pre-filter). Returns chunk ids.
 *
 * @example
 * const baseline = createMiniSearchBaseline(chunks);
 * baseline.search('lease timeout', { k: 10, filter: { version: '3.x' } });
 */
export function createMiniSearchBaseline(chunks: readonly Chunk[]): MiniSearchBaseline {
  const miniSearch = new MiniSearch<Chunk>({
    idField: 'chunkId',
    fields: ['title', 'heading', 'text'],
    storeFields: ['appliesTo'],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOPWORDS.has(lower) ? null : lower;
    },
    searchOptions: { boost: { heading: 3, title: 2 }, combineWith: 'OR' },
  });
  miniSearch.addAll(chunks);
  return {
    search(query, { k, filter }) {
      const version = filter?.version;
      const results = miniSearch.search(query, {
        filter: version === undefined ? undefined : (result) => result.appliesTo === version || result.appliesTo === 'all',
      });
      return results.slice(0, k).map((result) => String(result.id));
    },
  };
}
