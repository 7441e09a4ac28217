/**
 * Entry of a worker thread of `ingestPageWorker`: parses each batch of pages it is sent (see
 * `serveParseBatches`) and derives, for each page that parsed, what the index computes from its
 * chunks (`deriveDoc`: the values and the terms its dictionary numbered first), tagged with the tokenizer settings it used. Not meant to be imported.
 */
import { threadId, workerData } from 'node:worker_threads';
import { serveParseBatches } from '../corpus/parse-serve.ts';
import { createDeriveCaches, deriveDoc } from './ingest-writer.ts';
import { derivedTag, type DerivedPage, type IngestWorkerData } from './ingest-items.ts';
import type { TokenizerOptions } from './tokenize.ts';

const { tokenizer } = (workerData as { data: IngestWorkerData }).data;
const tag = derivedTag(tokenizer as TokenizerOptions);
// Term numbers of this worker's pages: named by its thread id, unique within the process.
const caches = createDeriveCaches(`ingest-worker-${threadId}`);
serveParseBatches((doc): DerivedPage => ({ tag, ...deriveDoc(doc, tokenizer, caches) }));
