import type { Chunk } from '../corpus/types.ts';

/** What joins the headings of a heading path when it is indexed or shown. */
export const HEADING_PATH_SEPARATOR = ' > ';

/**
 * A chunk's heading path as one line of text: the title, then each heading down to the chunk,
 * joined with " > ". The index's `heading_path` column holds it.
 *
 * @example
 * headingPathText({ headingPath: ['Error codes', '12xx Payloads', 'ORB-1202 PayloadTooLarge'] })
 * // 'Error codes > 12xx Payloads > ORB-1202 PayloadTooLarge'
 */
export function headingPathText(chunk: Pick<Chunk, 'headingPath'>): string {
  return chunk.headingPath.join(HEADING_PATH_SEPARATOR);
}
