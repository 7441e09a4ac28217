import { parentPort, workerData } from 'node:worker_threads';
import { AtlasError } from '../../errors.ts';
import type { ResolvedChunkingOptions } from '../chunking/chunking-options.ts';
import { toWire, type WireResult } from './doc-wire.ts';
import { parseDocument, type DocumentSource } from '../parse-document.ts';
import type { Doc } from '../types.ts';

/** A batch of pages sent to a worker; `id` is the index of its first page. */
export interface ParseBatch {
  id: number;
  sources: Array<{ path: string; bytes: Uint8Array } & Pick<DocumentSource, 'converted' | 'sidecar' | 'folder'>>;
}

/** A worker's answer to a {@link ParseBatch}: the results packed (see `toWire`), and the extra value of each page when the worker makes them. */
export interface ParseBatchReply {
  id: number;
  results: WireResult[];
  extras?: unknown[];
}

/** What a worker was started with (`workerData`): the chunking options, and its own data (`PageWorker.data`). */
export interface ParseWorkerData {
  options: ResolvedChunkingOptions;
  data?: unknown;
}

/**
 * Runs this worker thread as a parser for `parsePagesStream`: parses each batch it is sent with
 * the chunking options it was started with and posts the results back (packed) with the batch's
 * id; with `extra`, also the extra value of each page that parsed (undefined for the others).
 * `transfer` names the buffers of an extra value that are moved to the other thread rather than
 * copied (the worker must not use them again). Posts `'ready'` first. Only for worker entry
 * modules (`parse-worker.ts`, or a `PageWorker`).
 *
 * @example
 * // my-worker.ts
 * serveParseBatches((doc, data) => doc.chunks.length);
 * serveParseBatches((doc) => new Float64Array(doc.chunks.length), (value) => [value.buffer]);
 */
export function serveParseBatches<T>(extra?: (doc: Doc, data: unknown) => T, transfer?: (value: T) => ArrayBuffer[]): void {
  const port = parentPort;
  if (port === null) throw new AtlasError('internal', 'Atlas: serveParseBatches runs in a worker thread only. Start the module with new Worker(url), or let parsePagesStream start it (PageWorker).');
  const { options, data } = workerData as ParseWorkerData;
  port.on('message', (batch: ParseBatch) => {
    const parsed = batch.sources.map((source) =>
      parseDocument({ ...source, bytes: Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength) }, options),
    );
    const reply: ParseBatchReply = { id: batch.id, results: parsed.map(toWire) };
    const moved = new Set<ArrayBuffer>();
    if (extra !== undefined) {
      reply.extras = parsed.map((result) => {
        if (!result.ok) return undefined;
        const value = extra(result.doc, data);
        if (transfer !== undefined) for (const buffer of transfer(value)) moved.add(buffer);
        return value;
      });
    }
    port.postMessage(reply, [...moved]);
  });
  // The parser is loaded: ask for work.
  port.postMessage('ready');
}
