import type { Chunk } from '../../corpus/types.ts';
import { sectionAtLine } from '../../index/heading-path.ts';
import type { Citation } from './answer.ts';
import { quoteLinesIn } from './citations.ts';

/** The most chunks of one page read when looking for a quote that moved (a guard against a broken next-chunk chain). */
export const MAX_PAGE_CHUNKS = 2_000;

/** Reads a chunk of the index as it is now, under the run's filter (`index.getChunk(id, filter)`). */
export type ReadCurrentChunk = (chunkId: string) => Promise<Chunk | undefined>;

/**
 * Checks verified citations against the index as it is NOW: a quote verifies against the texts
 * the run (or an earlier turn of its conversation) was shown, but the page may have changed
 * since (`atlas ingest --watch` re-indexes a saved page while a conversation goes on). A quote
 * still in its chunk is kept as it is; one that moved to another chunk of its page (text
 * inserted above it) is kept, located there; one no longer in its page, or whose page is gone,
 * is marked `stale` with the reason. Reads one chunk per citation, a whole page only when the
 * quote is not in its chunk.
 *
 * @example
 * const current = await checkCitationsCurrent(answer.citations, (id) => index.getChunk(id, filter));
 * current[0]?.stale; // { reason: 'the quoted text is no longer in "leases" (leases.md): the page changed since the passage was read' }
 */
export async function checkCitationsCurrent(citations: Citation[], read: ReadCurrentChunk): Promise<Citation[]> {
  const checked: Citation[] = [];
  for (const citation of citations) checked.push(await checkCitation(citation, read));
  return checked;
}

async function checkCitation(citation: Citation, read: ReadCurrentChunk): Promise<Citation> {
  const { stale: _before, ...current } = citation;
  const chunk = await read(citation.chunkId);
  if (chunk !== undefined && chunk.docId === citation.docId && quoteLinesIn(citation.quote, chunk.text, chunk.endLine)) return current;
  const page = await readPage(citation.docId, read);
  for (const candidate of page) {
    const lines = quoteLinesIn(citation.quote, candidate.text, candidate.endLine);
    if (lines) return { ...current, chunkId: candidate.chunkId, ...sectionAtLine(candidate, lines.startLine), sourcePath: candidate.sourcePath, ...lines };
  }
  const reason =
    page.length === 0
      ? `the page "${citation.docId}" (${citation.sourcePath}) is no longer in the index: it was removed since the passage was read`
      : `the quoted text is no longer in "${citation.docId}" (${citation.sourcePath}): the page changed since the passage was read`;
  return { ...current, stale: { reason } };
}

/** A page's chunks in order, from `<docId>#0` along `nextChunkId`; empty when the page is gone. */
async function readPage(docId: string, read: ReadCurrentChunk): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  const seen = new Set<string>();
  let next: string | undefined = `${docId}#0`;
  while (next !== undefined && !seen.has(next) && chunks.length < MAX_PAGE_CHUNKS) {
    seen.add(next);
    const chunk: Chunk | undefined = await read(next);
    if (chunk === undefined || chunk.docId !== docId) break;
    chunks.push(chunk);
    next = chunk.nextChunkId;
  }
  return chunks;
}
