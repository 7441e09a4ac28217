import { AtlasError } from '../errors.ts';

/**
 * BM25 weight of each searched column (higher counts more). A term found in several columns of a
 * chunk counts once per column, times that column's weight.
 *
 * What a chunk defines is not a weighted column: it only finds, for each identifier a query names,
 * the chunk that defines it, which then goes first (see definitions-first.ts). Weighting
 * definitions into BM25 would also lift every other chunk that lists the name (reference tables,
 * rename tables) above the pages that answer the question; on the dev sets that lost recall@5
 * and MRR@10 (bench/ranking.ts).
 */
export interface ColumnWeights {
  /** The document title (every chunk of the document carries it). */
  title: number;
  /** The chunk's own heading (the deepest heading above its text). */
  heading: number;
  /**
   * The headings of the chunk's heading path between the title and its own heading (a `###`
   * chunk's `##`), joined with " > ": title and heading have their own columns, so the whole
   * path is searched with these three weights.
   */
  headingPath: number;
  /** The chunk's markdown text. */
  body: number;
  /** Identifier expansions of heading and text (`maxpayloadkb`, `payload too large`). */
  idents: number;
}

/**
 * Default weights: a heading match counts three times a body match, a title match twice, and a
 * match in the headings between them (the `##` above a `###` chunk, shared by all the chunks
 * below it) half. On the dev sets, split at `##` as today and split at `###`, 0.5 ranked as
 * well as 1 to 3 or better (bench/ranking.ts --weights).
 */
export const DEFAULT_WEIGHTS: Readonly<ColumnWeights> = Object.freeze({ title: 2, heading: 3, headingPath: 0.5, body: 1, idents: 1 });

/** The weighted columns in the order of the postings store's columns (chunk-terms.ts, postings-codec.ts). */
export const WEIGHT_ORDER: ReadonlyArray<keyof ColumnWeights> = ['title', 'heading', 'headingPath', 'body', 'idents'];

/**
 * {@link DEFAULT_WEIGHTS} overridden by `requested`, each a known column with a number >= 0.
 *
 * @example
 * resolveWeights({ headingPath: 2 }).headingPath; // 2
 */
export function resolveWeights(requested: Partial<ColumnWeights> | undefined): ColumnWeights {
  const weights: ColumnWeights = { ...DEFAULT_WEIGHTS };
  for (const [column, weight] of Object.entries(requested ?? {})) {
    if (!WEIGHT_ORDER.includes(column as keyof ColumnWeights)) {
      throw new AtlasError('usage', `Atlas: there is no column weight "${column}". The columns are ${WEIGHT_ORDER.join(', ')}.`);
    }
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw new AtlasError('usage', `Atlas: the weight of column ${column} must be a number >= 0, got ${weight}.`);
    }
    weights[column as keyof ColumnWeights] = weight;
  }
  return weights;
}
