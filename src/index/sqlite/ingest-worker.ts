/**
 * Entry of a worker thread of `ingestPageWorker`: parses each batch of pages it is sent (see
 * `serveParseBatches`) and derives, for each page that parsed, what the index computes from its
 * chunks (`deriveDoc`: the values and the terms its dictionary numbered first), tagged with the
 * tokenizer settings it used; or hands the page over underived while the writing thread is short
 * of pages (`HANDOVER_BACKLOG`). Not meant to be imported.
 */
import { threadId, workerData } from 'node:worker_threads';
import { serveParseBatches } from '../../corpus/workers/parse-serve.ts';
import { createDeriveCaches, deriveDoc, packTerms, type DerivedDoc } from './ingest-writer.ts';
import { derivedTag, HANDOVER_BACKLOG, PROGRESS_HANDLED, PROGRESS_TAKEN, type DerivedPage, type IngestWorkerData } from './ingest-items.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { Doc } from '../../corpus/types.ts';

const { tokenizer, progress } = (workerData as { data: IngestWorkerData }).data;
const tag = derivedTag(tokenizer as TokenizerOptions);
// Term numbers of this worker's pages: named by its thread id, unique within the process.
const caches = createDeriveCaches(`ingest-worker-${threadId}`);
const counters = progress === undefined ? undefined : new Int32Array(progress);
const derived = (doc: Doc): DerivedDoc => {
  const { values, terms } = deriveDoc(doc, tokenizer, caches);
  return { values: packTerms(values), terms };
};
serveParseBatches(
  (doc): DerivedPage => {
    if (counters === undefined) return { tag, ...derived(doc) };
    // Chunks handled by the workers that the writing thread has not taken: few, and it is about to wait.
    const backlog = Atomics.add(counters, PROGRESS_HANDLED, doc.chunks.length) - Atomics.load(counters, PROGRESS_TAKEN);
    if (backlog < HANDOVER_BACKLOG) return { tag, progress: progress! };
    return { tag, progress: progress!, ...derived(doc) };
  },
  // A page's term numbers and counts (one buffer: packTerms) move to the writing thread uncopied.
  (page) => (page.values === undefined || page.values.length === 0 ? [] : [page.values[0]!.terms.ids.buffer as ArrayBuffer]),
);
