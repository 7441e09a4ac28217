import { mergedLength, mergeInto, prependedLength, prependTo, type Part } from './parts.ts';

/** A part that is only a lead-in (under its heading, if any). */
function isLeadInPart(part: Part): boolean {
  return part.pieces.length === 1 && part.pieces[0]!.leadIn === true;
}

/** The bounds and the section nesting the merge needs. */
export interface MergeOptions {
  minChunkChars: number;
  maxChunkChars: number;
  /** Index of the last section nested in section `index` (see `Section.end`). */
  sectionEnd(index: number): number;
}

/**
 * Merges every part with fewer than `minChunkChars` meaningful characters, its heading included
 * (an empty section, a badge line, a link-only table of contents), and shorter than half of
 * `maxChunkChars`, into a neighbour, in one
 * pass: into the next part when that one lies within the small part's section (its continuation
 * or a subsection) and the result fits in `maxChunkChars`; else into the previous part if the
 * result fits; else into the next part of its section, the previous part or the next part,
 * whatever the size. The merged part is named after the one that is not small: the previous
 * part, or the next one, which the small part now leads into; heading lines that are no longer at
 * its start join its text. A part that is only a lead-in (see `isLeadIn`) joins the next part of
 * its section whatever the size, as it introduces that part's first block. A page's only part
 * stays as it is, however small.
 *
 * @example
 * mergeSmallParts([intro, install], { minChunkChars: 50, maxChunkChars: 1800, sectionEnd }).length; // 1
 */
export function mergeSmallParts(parts: Part[], options: MergeOptions): Part[] {
  const merged: Part[] = [];
  let pending: Part | undefined;
  parts.forEach((original, index) => {
    let part = original;
    if (pending) {
      part = prependTo(pending, part);
      pending = undefined;
    }
    const next = parts[index + 1];
    const nextInSection = next !== undefined && next.section >= part.section && next.section <= options.sectionEnd(part.section);
    // A part of half the bound or more is no small part, whatever it holds: the parts of a page of
    // links (a contents page, cut between its items) had each been merged into the next, into one
    // chunk of 1.1 MB.
    const small = part.pieces.length === 0 || (part.meaningful < options.minChunkChars && part.length < options.maxChunkChars / 2);
    if (!small && isLeadInPart(part) && nextInSection) {
      pending = part;
      return;
    }
    if (!small) {
      merged.push(part);
      return;
    }
    const previous = merged[merged.length - 1];
    if (nextInSection && prependedLength(part, next) <= options.maxChunkChars) pending = part;
    else if (previous && mergedLength(previous, part) <= options.maxChunkChars) mergeInto(previous, part);
    else if (nextInSection) pending = part;
    else if (previous) mergeInto(previous, part);
    else if (next) pending = part;
    else merged.push(part);
  });
  return merged;
}
