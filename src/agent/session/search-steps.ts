// What a search session records of each search and read: the steps of a run's trace.
import type { SearchFilter } from '../../index/types.ts';

/** One search of the run, as recorded in the trace. */
export interface SearchStep {
  query: string;
  filter: SearchFilter;
  docIds: string[];
  newDocIds: string[];
  chunkIds: string[];
  /** How many already-seen passages were skipped. */
  skippedSeen: number;
  /** Best score among the index hits of the page asked for (seen or not); undefined when nothing matched. */
  bestScore?: number;
  /** Weighted share of the query's words the passages shown hold (see `queryCoverage`); undefined when none was shown. */
  coverage?: number;
  /** The page of the query's ranking asked for (1-based); set only when above 1. */
  page?: number;
  /** Labels the model chose that the enforced filter does not allow: the search ran with the enforced values (one message each). */
  labelConflicts?: string[];
  note?: 'duplicate-query' | 'budget-exhausted' | 'no-new-results' | 'weak-matches' | 'chunk-budget';
}

/** One read of the run (read_section or read_neighbors). */
export interface ReadStep {
  tool: 'read_section' | 'read_neighbors';
  chunkId: string;
  found: boolean;
  newChunkIds: string[];
  /** read_section: the offset the page started at (0 unless the model paged on). */
  offset?: number;
  /** read_section: where the next page starts; null when the page reached the end of the section. */
  nextOffset?: number | null;
  /** Set when the read was refused because its offset was invalid. */
  note?: 'invalid-offset';
}
