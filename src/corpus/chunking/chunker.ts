import type { Block } from '../markdown/blocks.ts';
import type { ResolvedChunkingOptions } from './chunking-options.ts';
import { mergeSmallParts } from './merge-small.ts';
import { packBlocks } from './pack.ts';
import { meaningfulLength } from '../markdown/meaningful-length.ts';
import { partLines, partText, type Part, type Piece } from './parts.ts';
import type { Section } from '../markdown/sections.ts';
import type { Chunk, LabelValue } from '../types.ts';

/** What every chunk of one document shares. */
export interface ChunkContext {
  docId: string;
  title: string;
  appliesTo: string;
  labels: Record<string, LabelValue>;
  sourcePath: string;
  options: ResolvedChunkingOptions;
}

/**
 * Turns a page's sections into chunks. The top of the page and every `#`/`##` section start a
 * chunk. A section holds its deeper subsections (`###` down to `splitDepth`) while the whole is at
 * most `headingSplitChars` long; a longer one is split at them, and a section still over
 * `maxChunkChars` is cut between blocks, list items and table rows (see {@link packBlocks}). Then
 * chunks with fewer than `minChunkChars` meaningful characters are merged into a neighbour (see
 * {@link mergeSmallParts}). A chunk is named after its deepest heading (`heading`, the last of
 * `headingPath`): the one it starts at, whose line is not in `text`, or the one a small lead-in
 * merged in front of it leads into. Chunks are numbered in document order (`<docId>#0`, `#1`, ...)
 * and linked with prev/next; the same bytes and options always give the same chunks.
 *
 * @example
 * chunkSections(sections, { docId: 'install', title: 'Install', ... }).map((chunk) => chunk.chunkId);
 * // ['install#0', 'install#1']
 */
export function chunkSections(sections: Section[], context: ChunkContext): Chunk[] {
  const { maxChunkChars, minChunkChars, headingSplitChars } = context.options;
  const sizes = sectionSizes(sections);
  const parts: Part[] = [];
  const emit = (index: number) => {
    const section = sections[index]!;
    const children = childrenOf(sections, index);
    // Subsections deeper than ## stay inside while the whole is short; they always come before any ## child.
    let held = 0;
    while (held < children.length && sections[children[held]!]!.depth > 2) held++;
    const heldEnd = held === 0 ? index : sections[children[held - 1]!]!.end;
    const fits = sizes.through(index, heldEnd) <= (held === 0 ? maxChunkChars : headingSplitChars);
    const blocks = fits ? blocksThrough(sections, index, heldEnd) : section.blocks;
    if (blocks.length > 0 || (children.length === 0 && section.heading)) {
      parts.push(
        ...packBlocks({
          blocks,
          section: index,
          headingPath: withTitle(context.title, section.headingPath),
          ...(section.heading ? { headingPiece: headingPiece(section.heading, minChunkChars) } : {}),
          maxChunkChars,
          minChunkChars,
        }),
      );
    }
    children.slice(fits ? held : 0).forEach(emit);
  };
  emit(0);

  const merged = mergeSmallParts(parts, { minChunkChars, maxChunkChars, sectionEnd: (index) => sections[index]!.end });
  const chunks: Chunk[] = merged
    .filter((part) => part.pieces.length > 0)
    .map((part, ord) => ({
      chunkId: `${context.docId}#${ord}`,
      docId: context.docId,
      title: context.title,
      heading: part.headingPath[part.headingPath.length - 1]!,
      headingPath: part.headingPath,
      text: partText(part),
      appliesTo: context.appliesTo,
      ord,
      labels: context.labels,
      sourcePath: context.sourcePath,
      ...partLines(part),
    }));
  chunks.forEach((chunk, index) => {
    const previous = chunks[index - 1];
    const next = chunks[index + 1];
    if (previous) chunk.prevChunkId = previous.chunkId;
    if (next) chunk.nextChunkId = next.chunkId;
  });
  return chunks;
}

/** The piece of a heading line, its meaningful length counted up to `enough` (see `Piece.meaningful`). */
function headingPiece(block: Block, enough: number): Piece {
  return {
    text: block.text,
    gapBefore: block.gapBefore,
    startLine: block.startLine,
    endLine: block.endLine,
    heading: { depth: block.depth!, text: block.headingText ?? '' },
    meaningful: meaningfulLength(block.headingText ?? '', enough),
  };
}

/** Indices of the sections directly nested in section `index`. */
function childrenOf(sections: Section[], index: number): number[] {
  const children: number[] = [];
  for (let child = index + 1; child <= sections[index]!.end; child = sections[child]!.end + 1) children.push(child);
  return children;
}

/** A section's own blocks, then the heading and blocks of each section after it up to `last`. */
function blocksThrough(sections: Section[], index: number, last: number): Block[] {
  const blocks = [...sections[index]!.blocks];
  for (let at = index + 1; at <= last; at++) blocks.push(sections[at]!.heading!, ...sections[at]!.blocks);
  return blocks;
}

/**
 * Text length of sections `index..last` as one chunk (without the first one's heading line),
 * from prefix sums, so deciding where to split stays linear.
 */
function sectionSizes(sections: Section[]): { through(index: number, last: number): number } {
  const prefix = [0];
  for (const section of sections) {
    let size = section.heading ? section.heading.gapBefore.length + section.heading.text.length : 0;
    for (const block of section.blocks) size += block.gapBefore.length + block.text.length;
    prefix.push(prefix[prefix.length - 1]! + size);
  }
  return {
    through(index, last) {
      const heading = sections[index]!.heading;
      const headingSize = heading ? heading.gapBefore.length + heading.text.length : 0;
      const first = sections[index]!.blocks[0] ?? (last > index ? sections[index + 1]!.heading : undefined);
      return prefix[last + 1]! - prefix[index]! - headingSize - (first ? first.gapBefore.length : 0);
    },
  };
}

/**
 * A section's heading path under the page's title. A top heading that repeats the title is the
 * title itself, not a level below it (an HTML page whose `<h1>` is its `<title>`, a markdown page
 * whose `# Title` follows a badge line): `['Insert a date', 'Insert a date']` would name one
 * heading twice wherever a passage is shown.
 *
 * @example
 * withTitle('Insert a date', ['Insert a date', 'Fixed dates']); // ['Insert a date', 'Fixed dates']
 * withTitle('Guide', ['Install']); // ['Guide', 'Install']
 */
export function withTitle(title: string, headingPath: readonly string[]): string[] {
  return headingPath[0] === title ? [...headingPath] : [title, ...headingPath];
}
