/**
 * The corpus layer: reads a docs folder into documents and chunks.
 *
 * @example
 * import { loadCorpus } from './corpus/index.ts';
 * const { docs, problems } = await loadCorpus('./docs', { maxChunkChars: 1800 });
 */
export { loadCorpus, streamCorpus, type CorpusBatch, type CorpusStream, type LoadCorpusOptions, type LoadedCorpus, type StreamCorpusOptions } from './load.ts';
export { nodeCorpusFileSystem, type CorpusFileSystem } from './list-pages.ts';
export { createCorpusMemory, type CorpusMemory } from './corpus-memory.ts';
export {
  defaultParseThreads,
  defaultStreamThreads,
  MIN_PAGES_FOR_WORKERS,
  parsePages,
  parsePagesStream,
  type PageWorker,
  type ParsedBatch,
  type ParsePagesOptions,
  type ParsePagesStreamOptions,
} from './workers/parse-pages.ts';
export {
  DEFAULT_MAX_CHUNK_CHARS,
  DEFAULT_MIN_CHUNK_CHARS,
  DEFAULT_SPLIT_DEPTH,
  resolveChunkingOptions,
  type ChunkingOptions,
  type ResolvedChunkingOptions,
} from './chunking/chunking-options.ts';
export { parseDocument, type DocumentSource, type ParseDocumentResult } from './parse-document.ts';
export { DOC_ID_PATTERN, slugFromPath } from './markdown/slug.ts';
export type { Chunk, CorpusNote, Doc, LabelValue } from './types.ts';
export { isPaged, locatorText } from './locator.ts';
export { PAGE_EXTENSIONS_TEXT, pageFormat, type PageFormat } from './formats/formats.ts';
export { DEFAULT_FORMAT_LIMITS, type FormatLimits } from './formats/limits.ts';
export { SIDECAR_SUFFIX } from './page-body.ts';
export { readPages } from './load.ts';
