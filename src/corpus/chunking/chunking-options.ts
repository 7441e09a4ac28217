import { AtlasError } from '../../errors.ts';

/** Default upper bound on a chunk's text length, in characters. */
export const DEFAULT_MAX_CHUNK_CHARS = 1800;

/** Default lower bound on a chunk's meaningful characters (letters and digits, see `meaningfulLength`). */
export const DEFAULT_MIN_CHUNK_CHARS = 20;

/** Default deepest heading level that may start its own chunk (`###`). */
export const DEFAULT_SPLIT_DEPTH = 3;

/** How pages are cut into chunks (docs/chunking.md says how the defaults were chosen). */
export interface ChunkingOptions {
  /**
   * Upper bound on a chunk's text, in characters. A longer section is split at its subheadings,
   * then between paragraphs, list items and table rows. Default 1800.
   */
  maxChunkChars?: number;
  /**
   * Lower bound on a chunk's meaningful characters: letters and digits of its heading and text,
   * outside links, images and HTML markup. A smaller chunk (an empty section, a badge line, a
   * link-only table of contents, a "See [X](x.md)." pointer) is merged into a neighbour.
   * Default 20: about four words of its own.
   */
  minChunkChars?: number;
  /**
   * Deepest heading level that may start a chunk: `##` always does; `###` down to this depth do
   * when their parent section is longer than `headingSplitChars`. 2 to 6, default 3.
   */
  splitDepth?: number;
  /**
   * A section longer than this (its subsections included) is split at its subheadings, down to
   * `splitDepth`. At most `maxChunkChars`; default two thirds of it (1200).
   */
  headingSplitChars?: number;
}

/** {@link ChunkingOptions} with every default filled in and checked. */
export type ResolvedChunkingOptions = Required<ChunkingOptions>;

/**
 * Fills in the defaults and checks the values, throwing an {@link AtlasError} that names the
 * option, the bad value and a valid example.
 *
 * @example
 * resolveChunkingOptions({ maxChunkChars: 1500 });
 * // { maxChunkChars: 1500, minChunkChars: 20, splitDepth: 3, headingSplitChars: 1000 }
 */
export function resolveChunkingOptions(options: ChunkingOptions = {}): ResolvedChunkingOptions {
  const maxChunkChars = checkInteger('maxChunkChars', options.maxChunkChars ?? DEFAULT_MAX_CHUNK_CHARS, 1, Infinity, DEFAULT_MAX_CHUNK_CHARS);
  const minChunkChars = checkInteger('minChunkChars', options.minChunkChars ?? DEFAULT_MIN_CHUNK_CHARS, 0, Infinity, DEFAULT_MIN_CHUNK_CHARS);
  const splitDepth = checkInteger('splitDepth', options.splitDepth ?? DEFAULT_SPLIT_DEPTH, 2, 6, DEFAULT_SPLIT_DEPTH);
  if (minChunkChars >= maxChunkChars) {
    throw new AtlasError(
      'usage',
      `Atlas: minChunkChars must be smaller than maxChunkChars, got minChunkChars ${minChunkChars} and maxChunkChars ${maxChunkChars}. Pass e.g. { minChunkChars: ${DEFAULT_MIN_CHUNK_CHARS}, maxChunkChars: ${DEFAULT_MAX_CHUNK_CHARS} }.`,
    );
  }
  const headingSplitChars = checkInteger(
    'headingSplitChars',
    options.headingSplitChars ?? Math.round((maxChunkChars * 2) / 3),
    1,
    maxChunkChars,
    Math.round((maxChunkChars * 2) / 3),
  );
  return { maxChunkChars, minChunkChars, splitDepth, headingSplitChars };
}

function checkInteger(name: string, value: number, min: number, max: number, example: number): number {
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  const range =
    max === Infinity ? (min === 1 ? 'a positive integer' : `an integer >= ${min}`) : `an integer from ${min} to ${max}`;
  throw new AtlasError('usage', `Atlas: ${name} must be ${range}, got ${JSON.stringify(value)}. Pass e.g. { ${name}: ${example} }.`);
}
