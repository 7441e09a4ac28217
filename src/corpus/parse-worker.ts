/**
 * Entry of a parsing worker thread (see `parsePages`): parses each batch of pages it is sent with
 * the chunking options it was started with, and posts the results back (packed, see `toWire`)
 * with the batch's id. Posts `'ready'` first, once loaded.
 * Not meant to be imported.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ResolvedChunkingOptions } from './chunking-options.ts';
import { toWire } from './doc-wire.ts';
import { parseDocument } from './parse-document.ts';

/** A batch of pages sent to a worker. */
export interface ParseBatch {
  id: number;
  sources: { path: string; bytes: Uint8Array }[];
}

const options = (workerData as { options: ResolvedChunkingOptions }).options;
parentPort!.on('message', (batch: ParseBatch) => {
  const results = batch.sources.map((source) =>
    toWire(parseDocument({ path: source.path, bytes: Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength) }, options)),
  );
  parentPort!.postMessage({ id: batch.id, results });
});
// The parser is loaded: ask for work.
parentPort!.postMessage('ready');
