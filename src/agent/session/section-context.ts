/**
 * The context a very short section is read with. A section of one line (an error code and its
 * sentence, a setting with its default) rarely answers on its own: what it belongs to is in the
 * sections around it. So `read_section` of such a section shows the first lines of its previous
 * and next sections too, each apart, named and paged like any section. And which side of a
 * section a neighbour stands on, and what `read_neighbors` says of a section with none on a side.
 */
import type { Chunk } from '../../corpus/types.ts';
import { sectionPage, type SectionPage } from './section-page.ts';

/** A section shorter than this (in characters) is read with its neighbours' first lines. */
export const TINY_SECTION_CHARS = 200;

/** Tokens of each neighbour shown beside a short section (about 600 characters). */
export const CONTEXT_TOKENS = 150;

/** A neighbour shown beside a short section: which side it is on, and its first page. */
export interface ContextNeighbor {
  relation: 'previous' | 'next';
  chunk: Chunk;
  page: SectionPage;
}

/**
 * The neighbours to show with `chunk` (of those the filter let through: `neighbors`), each with
 * its first page of at most {@link CONTEXT_TOKENS} tokens (or `maxTokens`, a session's page size,
 * when smaller); none when the chunk is not shorter than {@link TINY_SECTION_CHARS}.
 *
 * @example
 * contextNeighbors(errorCodeChunk, await index.neighbors(errorCodeChunk.chunkId, filter), 800).map((entry) => entry.relation);
 * // ['previous', 'next']
 */
export function contextNeighbors(chunk: Chunk, neighbors: readonly Chunk[], maxTokens: number): ContextNeighbor[] {
  if (chunk.text.length >= TINY_SECTION_CHARS) return [];
  const tokens = Math.min(CONTEXT_TOKENS, maxTokens);
  return neighbors.flatMap((neighbor): ContextNeighbor[] => {
    const relation = neighbor.chunkId === chunk.prevChunkId ? 'previous' : neighbor.chunkId === chunk.nextChunkId ? 'next' : undefined;
    return relation === undefined ? [] : [{ relation, chunk: neighbor, page: sectionPage(neighbor.text, { offset: 0, maxTokens: tokens }) }];
  });
}

/** Which side of `chunk` a neighbour of the same page stands on (the nearest one the filter lets through may not be adjacent). */
export function sideOf(neighbor: Chunk, chunk: Chunk): 'previous' | 'next' {
  return neighbor.ord < chunk.ord ? 'previous' : 'next';
}

/** What `read_neighbors` says when a chunk has no previous or no next section to show. */
export function neighborsNote(chunkId: string, positions: ReadonlySet<unknown>): string | undefined {
  if (positions.has('previous') && positions.has('next')) return undefined;
  if (positions.size === 0) return `${chunkId} is the only section of its page you can read: it has no neighbours.`;
  return positions.has('next') ? `${chunkId} is the first section of its page you can read: no previous section.` : `${chunkId} is the last section of its page you can read: no next section.`;
}
