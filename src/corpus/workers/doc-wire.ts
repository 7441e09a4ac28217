import type { ParseDocumentResult } from '../parse-document.ts';
import type { Chunk, Doc } from '../types.ts';

/**
 * A parse result as a worker thread posts it: a document's chunks as columns, without the
 * fields every chunk of the document shares or that follow from its position (id, ord,
 * heading, prev/next links). Copying it between threads costs a fraction of copying the chunk
 * objects.
 */
export type WireResult =
  | { ok: true; doc: Omit<Doc, 'chunks'>; texts: string[]; headingPaths: string[][]; lines: number[] }
  | Extract<ParseDocumentResult, { ok: false }>;

/**
 * Packs a parse result for posting to another thread.
 *
 * @example
 * fromWire(toWire(result)); // deep-equals result
 */
export function toWire(result: ParseDocumentResult): WireResult {
  if (!result.ok) return result;
  const { chunks, ...doc } = result.doc;
  const lines: number[] = [];
  for (const chunk of chunks) lines.push(chunk.startLine, chunk.endLine);
  return { ok: true, doc, texts: chunks.map((chunk) => chunk.text), headingPaths: chunks.map((chunk) => chunk.headingPath), lines };
}

/**
 * Rebuilds the parse result {@link toWire} packed: the same chunks, field for field and in the
 * same key order as `chunkSections` makes them, sharing the document's labels object.
 *
 * @example
 * fromWire(toWire(result)); // deep-equals result
 */
export function fromWire(wire: WireResult): ParseDocumentResult {
  if (!wire.ok) return wire;
  const { docId, title, appliesTo, labels, sourcePath } = wire.doc;
  const count = wire.texts.length;
  const chunks: Chunk[] = new Array(count);
  for (let ord = 0; ord < count; ord++) {
    const headingPath = wire.headingPaths[ord]!;
    const chunk: Chunk = {
      chunkId: `${docId}#${ord}`,
      docId,
      title,
      heading: headingPath[headingPath.length - 1]!,
      headingPath,
      text: wire.texts[ord]!,
      appliesTo,
      ord,
      labels,
      sourcePath,
      startLine: wire.lines[2 * ord]!,
      endLine: wire.lines[2 * ord + 1]!,
    };
    if (ord > 0) chunk.prevChunkId = `${docId}#${ord - 1}`;
    if (ord + 1 < count) chunk.nextChunkId = `${docId}#${ord + 1}`;
    chunks[ord] = chunk;
  }
  return { ok: true, doc: { ...wire.doc, chunks } };
}
