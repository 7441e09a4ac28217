import type { Chunk } from '../corpus/types.ts';
import { pathUnder } from './snippet.ts';
import { headingAbove } from './snippet-units.ts';

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

/**
 * The heading and heading path of the part of a chunk that a source line belongs to: the heading
 * line of the chunk's text above it (a small section merged into its neighbour, a subsection held
 * in its section), else the chunk's own. A chunk's text ends at its `endLine`, one text line per
 * source line (as citations are located).
 *
 * @example
 * // pro/config.md's chunk "Options" holds `### worker.sweepThreshold` at line 28:
 * sectionAtLine(chunk, 33); // { heading: 'worker.sweepThreshold', headingPath: ['Pro configuration', 'Options', 'worker.sweepThreshold'] }
 */
export function sectionAtLine(chunk: Pick<Chunk, 'text' | 'heading' | 'headingPath' | 'endLine'>, sourceLine: number): Pick<Chunk, 'heading' | 'headingPath'> {
  const lines = chunk.text.replace(/\n+$/, '').split('\n');
  const inner = headingAbove(lines, sourceLine - (chunk.endLine - (lines.length - 1)));
  const path = inner === undefined ? undefined : pathUnder(chunk.headingPath, inner);
  return inner !== undefined && path !== undefined ? { heading: inner.text, headingPath: path } : { heading: chunk.heading, headingPath: [...chunk.headingPath] };
}
