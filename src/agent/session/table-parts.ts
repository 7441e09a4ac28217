/**
 * The chunks a long table was split over. The chunker cuts an oversized table between rows and
 * repeats its header and delimiter rows at the top of each part (corpus/chunking/pack.ts), so a
 * part is recognised from its neighbours alone: the next chunk of the same section starts with
 * the header and delimiter rows this chunk's last table has, and this chunk ends with a row.
 */
import type { Chunk } from '../../corpus/types.ts';
import type { IndexBackend, SearchFilter } from '../../index/types.ts';

/** Parts followed at most in each direction (a table of 50 parts is a hundred kilobytes). */
const MAX_PARTS = 50;

const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * The ids of the chunks holding the parts of the table `chunk` is part of, in page order (`chunk`
 * included), or undefined when `chunk` holds no part of a table split over several chunks. Reads
 * only neighbours, and only when the chunk's text starts with a table's header (a part may come
 * before) or ends with a table row (a part may come after); neighbours the filter hides end the
 * walk.
 *
 * @example
 * await tableParts(chunk, index, filter); // ['migration-2-to-3#3', 'migration-2-to-3#4']
 */
export async function tableParts(chunk: Chunk, index: Pick<IndexBackend, 'getChunk'>, filter?: SearchFilter): Promise<string[] | undefined> {
  const before: string[] = [];
  const after: string[] = [];
  for (let current = chunk; before.length < MAX_PARTS && current.prevChunkId !== undefined && tableHeader(current.text) !== undefined; ) {
    const previous = await index.getChunk(current.prevChunkId, filter);
    if (previous === undefined || !continues(previous, current)) break;
    before.unshift(previous.chunkId);
    current = previous;
  }
  for (let current = chunk; after.length < MAX_PARTS && current.nextChunkId !== undefined && endsWithRow(current.text); ) {
    const next = await index.getChunk(current.nextChunkId, filter);
    if (next === undefined || !continues(current, next)) break;
    after.push(next.chunkId);
    current = next;
  }
  return before.length + after.length === 0 ? undefined : [...before, chunk.chunkId, ...after];
}

/** Whether `next` carries on the table `previous` ends with: same section, same header, `previous` ending in a row. */
function continues(previous: Chunk, next: Chunk): boolean {
  const header = tableHeader(next.text);
  return (
    header !== undefined &&
    endsWithRow(previous.text) &&
    previous.headingPath.join('\n') === next.headingPath.join('\n') &&
    previous.text.includes(`${header}\n`) &&
    previous.text.lastIndexOf(`${header}\n`) >= previous.text.lastIndexOf('\n\n')
  );
}

/** The header and delimiter rows a text starts with, joined by a line break; undefined when it does not start with a table. */
function tableHeader(text: string): string | undefined {
  const first = text.indexOf('\n');
  if (first < 0) return undefined;
  const second = text.indexOf('\n', first + 1);
  const header = text.slice(0, first);
  const delimiter = text.slice(first + 1, second < 0 ? undefined : second);
  return header.includes('|') && DELIMITER_ROW.test(delimiter) ? `${header}\n${delimiter}` : undefined;
}

function endsWithRow(text: string): boolean {
  const last = text.trimEnd();
  return last.slice(last.lastIndexOf('\n') + 1).includes('|');
}

/**
 * The table parts (see {@link tableParts}) of each hit that is a part of a table split over
 * chunks, by chunk id.
 *
 * @example
 * await tablePartsByChunk(hits, index, filter); // Map { 'migration-2-to-3#3' => ['migration-2-to-3#3', 'migration-2-to-3#4'] }
 */
export async function tablePartsByChunk(chunks: readonly Chunk[], index: Pick<IndexBackend, 'getChunk'>, filter?: SearchFilter): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  for (const chunk of chunks) {
    const parts = await tableParts(chunk, index, filter);
    if (parts) tables.set(chunk.chunkId, parts);
  }
  return tables;
}
