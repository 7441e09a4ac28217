/**
 * Entry of a worker thread of `ingestPageWorker`: parses each batch of pages it is sent (see
 * `serveParseBatches`) and derives, for each page that parsed, what the index computes from its
 * chunks (`deriveDocValues`), tagged with the tokenizer settings it used. Not meant to be imported.
 */
import { workerData } from 'node:worker_threads';
import { serveParseBatches } from '../corpus/parse-serve.ts';
import { createDeriveCaches, deriveDocValues } from './ingest-writer.ts';
import { derivedTag, type DerivedPage, type IngestWorkerData } from './ingest-items.ts';
import type { TokenizerOptions } from './tokenize.ts';

const { tokenizer } = (workerData as { data: IngestWorkerData }).data;
const tag = derivedTag(tokenizer as TokenizerOptions);
const caches = createDeriveCaches();
serveParseBatches((doc): DerivedPage => ({ tag, values: deriveDocValues(doc, tokenizer, caches) }));
