import type { Block, ChildSpan } from '../markdown/blocks.ts';
import { meaningfulLength } from '../markdown/meaningful-length.ts';
import { addedLength, createPart, type Part, type Piece } from './parts.ts';

/** The blocks of one section (or of a section and the subsections it holds) and how to name them. */
export interface PackInput {
  blocks: Block[];
  /** Index of the section, for {@link Part.section}. */
  section: number;
  /** Title and headings down to the section's own. */
  headingPath: string[];
  /** The section's heading line, naming the first part. */
  headingPiece?: Piece;
  maxChunkChars: number;
  /** The chunking's `minChunkChars`: a block's meaningful length is counted up to it (see {@link Piece.meaningful}). */
  minChunkChars: number;
}

/**
 * Cuts a section's blocks into parts of at most `maxChunkChars` characters. A section that fits is
 * one part. Otherwise cuts fall between blocks, and inside an oversized list between items
 * (nested lists stay with their item) or an oversized table between rows (each part repeats the
 * header and delimiter rows); never inside a code fence, a paragraph or a callout container
 * (`::: tip` ... `:::`, `{% hint %}`: blocks of one `group`), and never right after a heading, a
 * lead-in (see {@link isLeadIn}) or a directive's label. A single block longer than
 * the bound is a part of its own. Parts are balanced: a section of 1.2 times the bound gives two
 * parts of 0.6, not 1 and 0.2. A part that starts at a heading below the split depth is named
 * after it, a part inside one has it in its path. No part for a section with no blocks and no
 * heading.
 *
 * @example
 * packBlocks({ blocks, section: 2, headingPath: ['Guide', 'Options'], headingPiece, maxChunkChars: 1800, minChunkChars: 20 });
 * // [{ headingPath: ['Guide', 'Options'], ... }, { headingPath: ['Guide', 'Options', 'Advanced'], ... }]
 */
export function packBlocks(input: PackInput): Part[] {
  const pieces = input.blocks.map((block) => blockPiece(block, input.minChunkChars));
  let total = 0;
  pieces.forEach((piece, index) => (total += addedLength(index === 0, piece)));
  if (pieces.length === 0) {
    return input.headingPiece ? [createPart({ section: input.section, headingPath: input.headingPath, headingPiece: input.headingPiece })] : [];
  }
  const groups = total <= input.maxChunkChars ? [pieces] : balance(units(input.blocks, pieces, input.maxChunkChars), input.maxChunkChars);
  return nameParts(groups, input);
}

/** The piece of a whole block, its meaningful length counted up to `enough`. */
function blockPiece(block: Block, enough: number): Piece {
  const piece: Piece = { text: block.text, gapBefore: block.gapBefore, startLine: block.startLine, endLine: block.endLine, meaningful: meaningfulLength(block.text, enough) };
  if (block.depth !== undefined) piece.heading = { depth: block.depth, text: block.headingText ?? '' };
  if (isLeadIn(block) || block.type === 'label') piece.leadIn = true;
  return piece;
}

/**
 * Groups pieces into units that must stay together: the blocks of a callout container, a heading,
 * a lead-in or a label with what follows it; an oversized list or table becomes one unit per item
 * or row.
 */
function units(blocks: Block[], pieces: Piece[], maxChunkChars: number): Piece[][] {
  const result: Piece[][] = [];
  let glueNext = false;
  const add = (unit: Piece[]) => {
    if (glueNext) result[result.length - 1]!.push(...unit);
    else result.push(unit);
    const last = unit[unit.length - 1]!;
    glueNext = last.heading !== undefined || last.leadIn === true;
  };
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index]!;
    if (block.group !== undefined) {
      let last = index;
      while (last + 1 < blocks.length && blocks[last + 1]!.group === block.group) last++;
      add(pieces.slice(index, last + 1));
      index = last;
    } else if (block.children && (block.children.length > 1 || block.children[0]?.parts !== undefined) && block.text.length > maxChunkChars) {
      const [first, ...rest] = block.type === 'table' ? tableUnits(block) : listUnits(block, maxChunkChars);
      add(first!);
      for (const unit of rest) add(unit);
    } else {
      add([pieces[index]!]);
    }
  }
  return result;
}

/**
 * One unit per list item; each item keeps its nested lists, but one longer than `maxChunkChars` is
 * cut between the items it holds, in turn (its parts: blocks.ts `ChildSpan.parts`): a contents
 * page, a list of lists, was one chunk of 1.1 MB.
 */
function listUnits(block: Block, maxChunkChars: number): Piece[][] {
  const units: Piece[][] = [];
  const add = (item: ChildSpan, gapBefore: string) => {
    if (item.parts !== undefined && item.text.length > maxChunkChars) {
      item.parts.forEach((part, index) => add(part, index === 0 ? gapBefore : part.gapBefore));
      return;
    }
    units.push([{ text: item.text, gapBefore, startLine: item.startLine, endLine: item.endLine, meaningful: meaningfulLength(item.text) }]);
  };
  block.children!.forEach((item, index) => add(item, index === 0 ? block.gapBefore : item.gapBefore));
  return units;
}

/** The header row with the first body row, then one unit per row carrying the header to repeat. */
function tableUnits(block: Block): Piece[][] {
  const [header, ...rows] = block.children!;
  const delimiter = rows[0]!.gapBefore.replace(/\s+$/, '');
  const tableHeader = header!.text + delimiter;
  const headerPiece: Piece = { text: header!.text, gapBefore: block.gapBefore, startLine: header!.startLine, endLine: header!.endLine, meaningful: meaningfulLength(header!.text) };
  return [
    [headerPiece, rowPiece(rows[0]!, tableHeader)],
    ...rows.slice(1).map((row) => [rowPiece(row, tableHeader)]),
  ];
}

function rowPiece(row: NonNullable<Block['children']>[number], tableHeader: string): Piece {
  return { text: row.text, gapBefore: row.gapBefore, startLine: row.startLine, endLine: row.endLine, tableHeader, meaningful: meaningfulLength(row.text) };
}

/**
 * Greedy packing towards an even size: the target is the total over the fewest parts that can
 * hold it; a part closes before a unit that would overflow it or take it further past the target
 * than it stays below.
 */
function balance(unitList: Piece[][], maxChunkChars: number): Piece[][] {
  const unitLength = (unit: Piece[], first: boolean) => unit.reduce((sum, piece, index) => sum + addedLength(first && index === 0, piece), 0);
  const total = unitList.reduce((sum, unit, index) => sum + unitLength(unit, index === 0), 0);
  const target = total / Math.ceil(total / maxChunkChars);
  const groups: Piece[][] = [];
  let current: Piece[] = [];
  let length = 0;
  // The length without a repeated table header, which the target does not count.
  let body = 0;
  for (const unit of unitList) {
    const added = unitLength(unit, current.length === 0);
    // Close the part before a unit that would overflow it, or whose middle would pass the target.
    if (current.length > 0 && (length + added > maxChunkChars || body + added / 2 > target)) {
      groups.push(current);
      current = [];
      length = unitLength(unit, true);
      body = length - (unit[0]!.tableHeader === undefined ? 0 : unit[0]!.tableHeader.length + 1);
    } else {
      length += added;
      body += added;
    }
    current.push(...unit);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * Names each group: the first after the section's heading, a group that starts at a deeper
 * heading after that heading (moved out of its text), any other after the deeper headings in
 * effect where it starts.
 */
function nameParts(groups: Piece[][], input: PackInput): Part[] {
  const stack: { depth: number; text: string }[] = [];
  const enter = (heading: { depth: number; text: string }) => {
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= heading.depth) stack.pop();
    stack.push(heading);
  };
  return groups.map((group, index) => {
    let headingPiece = index === 0 ? input.headingPiece : undefined;
    let pieces = group;
    if (headingPiece === undefined && group[0]!.heading) {
      headingPiece = group[0]!;
      pieces = group.slice(1);
      enter(group[0]!.heading!);
    }
    const headingPath = [...input.headingPath, ...stack.map((entry) => entry.text)];
    for (const piece of pieces) if (piece.heading) enter(piece.heading);
    return createPart({ section: input.section, headingPath, ...(headingPiece ? { headingPiece } : {}), pieces });
  });
}

/** Longest paragraph that can be a lead-in: about three lines of text. */
const MAX_LEAD_IN_CHARS = 240;

/**
 * A lead-in introduces the block after it ("The following options are available:"): a
 * paragraph of one sentence, at most 240 characters, ending with a colon. It is kept with what
 * follows rather than left at the end of a chunk, or as a chunk of its own.
 *
 * @example
 * isLeadIn({ type: 'paragraph', text: 'Install it from npm:' }); // true
 * isLeadIn({ type: 'paragraph', text: 'It is fast. Run it like this:' }); // false (two sentences)
 */
export function isLeadIn(block: { type: string; text: string }): boolean {
  const { type, text } = block;
  return type === 'paragraph' && text.length <= MAX_LEAD_IN_CHARS && /[^:\s]:\s*$/.test(text) && !/[.!?]\s/.test(text);
}
