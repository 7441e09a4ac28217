import type { Chunk } from '../corpus/types.ts';

/** What joins the headings of a heading path when it is indexed or shown. */
export const HEADING_PATH_SEPARATOR = ' > ';

/**
 * A chunk's heading path as one line of text: the title, then each heading down to the chunk,
 * joined with " > ".
 *
 * @example
 * headingPathText({ headingPath: ['Error codes', '12xx Payloads', 'ORB-1202 PayloadTooLarge'] })
 * // 'Error codes > 12xx Payloads > ORB-1202 PayloadTooLarge'
 */
export function headingPathText(chunk: Pick<Chunk, 'headingPath'>): string {
  return chunk.headingPath.join(HEADING_PATH_SEPARATOR);
}

/**
 * What the index's `heading_path` column holds: the heading path without the title and without
 * the chunk's own heading, which the `title` and `heading` columns already hold, joined with
 * " > ". For a `###` chunk that is its `##` heading; for a chunk directly under its `##`,
 * nothing. (Indexing the whole path again made every title and heading word count twice and
 * lengthened the doclists of exactly the words queries share with headings: search p50 +9%.)
 *
 * @example
 * innerHeadingsText({ heading: 'ORB-1202 PayloadTooLarge', headingPath: ['Error codes', '12xx Payloads', 'ORB-1202 PayloadTooLarge'] })
 * // '12xx Payloads'
 */
export function innerHeadingsText(chunk: Pick<Chunk, 'heading' | 'headingPath'>): string {
  const inner = chunk.headingPath.slice(1);
  const own = inner.indexOf(chunk.heading);
  if (own !== -1) inner.splice(own, 1);
  return inner.join(HEADING_PATH_SEPARATOR);
}
