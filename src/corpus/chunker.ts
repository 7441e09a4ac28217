import type { Block, Section } from './sections.ts';
import type { Chunk, LabelValue } from './types.ts';

/** What every chunk of one document shares. */
export interface ChunkContext {
  docId: string;
  title: string;
  appliesTo: string;
  labels: Record<string, LabelValue>;
  sourcePath: string;
  /** The markdown body the blocks' offsets point into. */
  body: string;
  maxChunkChars: number;
}

/**
 * Turns sections into chunks: one per section, or several when a section's text is longer than
 * `maxChunkChars`. Splits fall between top-level blocks (never inside a code fence, a table, a
 * list or a `:::` admonition); one oversized block stays whole. Chunks are numbered in document
 * order (`<docId>#0`, `#1`, ...) and linked with prev/next. An empty section 0 gives no chunk; an
 * empty `##` section gives a chunk with empty text (its heading still says something).
 *
 * @example
 * chunkSections(sections, { docId: 'install', title: 'Install', ... }).map((c) => c.chunkId);
 * // ['install#0', 'install#1']
 */
export function chunkSections(sections: Section[], context: ChunkContext): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    if (section.heading === undefined && section.blocks.length === 0) continue;
    const heading = section.heading ?? context.title;
    const basePath = section.heading === undefined ? [context.title] : [context.title, section.heading];
    const parts = packUnits(groupUnits(section.blocks, context.body), context);
    if (parts.length === 0) parts.push([]);
    parts.forEach((part, index) => {
      const first = part[0];
      const last = part[part.length - 1];
      const ord = chunks.length;
      chunks.push({
        chunkId: `${context.docId}#${ord}`,
        docId: context.docId,
        title: context.title,
        heading,
        headingPath: index === 0 || !first ? basePath : [...basePath, ...headingsInEffect(section.blocks, first)],
        text: blocksText(part, context.body),
        appliesTo: context.appliesTo,
        ord,
        labels: context.labels,
        sourcePath: context.sourcePath,
        startLine: index === 0 && section.headingLine !== undefined ? section.headingLine : first!.startLine,
        endLine: last?.endLine ?? section.headingLine!,
      });
    });
  }
  chunks.forEach((chunk, index) => {
    const previous = chunks[index - 1];
    const next = chunks[index + 1];
    if (previous) chunk.prevChunkId = previous.chunkId;
    if (next) chunk.nextChunkId = next.chunkId;
  });
  return chunks;
}

/** The blocks verbatim, joined by the whitespace that separated them in the source. */
function blocksText(blocks: Block[], body: string): string {
  return blocks
    .map((block, index) => (index === 0 ? '' : block.gapBefore) + body.slice(block.start, block.end))
    .join('');
}

/**
 * Groups blocks that must stay together: a Docusaurus admonition (`:::tip` ... `:::`) spread
 * over several paragraphs. An admonition that is never closed is not grouped.
 */
function groupUnits(blocks: Block[], body: string): Block[][] {
  const units: Block[][] = [];
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index]!;
    const opening = /^(:{3,})[A-Za-z]/.exec(body.slice(block.start, block.end));
    const closingIndex = opening ? findClosing(blocks, index, opening[1]!, body) : -1;
    if (closingIndex === -1) {
      units.push([block]);
    } else {
      units.push(blocks.slice(index, closingIndex + 1));
      index = closingIndex;
    }
  }
  return units;
}

function findClosing(blocks: Block[], from: number, fence: string, body: string): number {
  for (let index = from; index < blocks.length; index++) {
    const block = blocks[index]!;
    const lines = body.slice(block.start, block.end).split('\n');
    const lastLine = lines[lines.length - 1]!.trim();
    if (lastLine === fence && (index > from || lines.length > 1)) return index;
  }
  return -1;
}

/** Greedily packs units into parts of at most `maxChunkChars` characters of text. */
function packUnits(units: Block[][], context: ChunkContext): Block[][] {
  const parts: Block[][] = [];
  let current: Block[] = [];
  let length = 0;
  for (const unit of units) {
    const added = unitLength(unit, current.length > 0);
    if (current.length > 0 && length + added > context.maxChunkChars) {
      parts.push(current);
      current = [...unit];
      length = unitLength(unit, false);
    } else {
      current.push(...unit);
      length += added;
    }
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Length of a unit's text, with the gap before its first block when it follows other blocks. */
function unitLength(unit: Block[], withLeadingGap: boolean): number {
  return unit.reduce(
    (sum, block, index) => sum + block.end - block.start + (index > 0 || withLeadingGap ? block.gapBefore.length : 0),
    0,
  );
}

/** Texts of the deeper headings that enclose `target` (including `target` if it is a heading). */
function headingsInEffect(blocks: Block[], target: Block): string[] {
  const stack: { depth: number; text: string }[] = [];
  for (const block of blocks) {
    if (block.depth !== undefined) {
      while (stack.length > 0 && stack[stack.length - 1]!.depth >= block.depth) stack.pop();
      stack.push({ depth: block.depth, text: block.headingText ?? '' });
    }
    if (block === target) break;
  }
  return stack.map((entry) => entry.text);
}
