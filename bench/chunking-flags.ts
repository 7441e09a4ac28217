import type { ChunkingOptions } from '../src/corpus/index.ts';

/**
 * The chunking flags the chunk benches share, for `node:util` parseArgs.
 *
 * @example
 * parseArgs({ options: { ...CHUNKING_FLAGS, json: { type: 'boolean' } } });
 */
export const CHUNKING_FLAGS = {
  'max-chunk-chars': { type: 'string' },
  'min-chunk-chars': { type: 'string' },
  'split-depth': { type: 'string' },
  'heading-split-chars': { type: 'string' },
} as const;

/**
 * The chunking options the flags set; the corpus layer checks them.
 *
 * @example
 * chunkingOptionsFrom({ 'max-chunk-chars': '1200' }); // { maxChunkChars: 1200 }
 */
export function chunkingOptionsFrom(values: Partial<Record<keyof typeof CHUNKING_FLAGS, string>>): ChunkingOptions {
  const options: ChunkingOptions = {};
  if (values['max-chunk-chars'] !== undefined) options.maxChunkChars = Number(values['max-chunk-chars']);
  if (values['min-chunk-chars'] !== undefined) options.minChunkChars = Number(values['min-chunk-chars']);
  if (values['split-depth'] !== undefined) options.splitDepth = Number(values['split-depth']);
  if (values['heading-split-chars'] !== undefined) options.headingSplitChars = Number(values['heading-split-chars']);
  return options;
}
