/** A piece of a chunk's text that is never cut: a block, a heading line, a list item or a table row. */
export interface Piece {
  text: string;
  /** Whitespace that separates it from the previous piece in the source. */
  gapBefore: string;
  startLine: number;
  endLine: number;
  /** Set when the piece is a heading line. */
  heading?: { depth: number; text: string };
  /** For a table row after the first: the header and delimiter rows, repeated when the row opens a chunk. */
  tableHeader?: string;
  /**
   * Letters and digits of its own in `text` (see `meaningfulLength`), counted at most up to the
   * chunking's `minChunkChars`: all a part's sum is asked is whether it reaches that, which a
   * sum of counts so capped answers the same.
   */
  meaningful: number;
  /** A short paragraph ending with a colon, introducing what follows (see `isLeadIn`). */
  leadIn?: boolean;
}

/** A chunk in the making: the pieces of one span of the page and the heading it is named after. */
export interface Part {
  /** Index of the section the part is named after. */
  section: number;
  /** Title, then the headings down to the one the part is named after. */
  headingPath: string[];
  /** The heading line the part starts at and is named after; not in its text unless merged after another part. */
  headingPiece?: Piece;
  pieces: Piece[];
  /** Length of the rendered text. */
  length: number;
  /** Sum of the meaningful lengths of the heading line and the pieces (each capped, see {@link Piece.meaningful}). */
  meaningful: number;
}

/**
 * Makes a part with its first pieces.
 *
 * @example
 * createPart({ section: 1, headingPath: ['Guide', 'Install'], pieces: [piece] }).length; // piece.text.length
 */
export function createPart(input: { section: number; headingPath: string[]; headingPiece?: Piece; pieces?: Piece[] }): Part {
  const part: Part = { section: input.section, headingPath: input.headingPath, pieces: [], length: 0, meaningful: 0 };
  if (input.headingPiece) {
    part.headingPiece = input.headingPiece;
    part.meaningful = input.headingPiece.meaningful;
  }
  for (const piece of input.pieces ?? []) appendPiece(part, piece);
  return part;
}

/**
 * Adds a piece at the end of a part, keeping its lengths up to date.
 *
 * @example
 * appendPiece(part, { text: 'More.', gapBefore: '\n\n', startLine: 9, endLine: 9, meaningful: 4 }); // part.length += 7
 */
export function appendPiece(part: Part, piece: Piece): void {
  part.length += addedLength(part.pieces.length === 0, piece);
  part.meaningful += piece.meaningful;
  part.pieces.push(piece);
}

/**
 * Characters a piece adds to a text: with its separating gap, or with the repeated table header
 * when it comes first.
 *
 * @example
 * addedLength(false, { text: 'Row', gapBefore: '\n', ... }); // 4
 */
export function addedLength(first: boolean, piece: Piece): number {
  if (!first) return piece.gapBefore.length + piece.text.length;
  return piece.tableHeader === undefined ? piece.text.length : piece.tableHeader.length + 1 + piece.text.length;
}

/**
 * Appends `next` to `part`: `next`'s heading line becomes text, `part` keeps its name.
 *
 * @example
 * mergeInto(queues, deprecated); // partText(queues) now ends with '\n\n## Deprecated'
 */
export function mergeInto(part: Part, next: Part): void {
  if (next.headingPiece) appendPiece(part, next.headingPiece);
  for (const piece of next.pieces) appendPiece(part, piece);
}

/**
 * Puts `part` in front of `next` and names the result after `next`, whose content it is: both
 * heading lines become text, since the result starts above them. Reuses `part`'s piece list.
 *
 * @example
 * prependTo(badges, install).headingPath; // ['Guide', 'Install'], its text starts with the badges
 */
export function prependTo(part: Part, next: Part): Part {
  const pieces = part.headingPiece ? [part.headingPiece, ...part.pieces] : part.pieces;
  const merged: Part = { section: next.section, headingPath: next.headingPath, pieces, length: lengthAsText(part), meaningful: part.meaningful };
  mergeInto(merged, next);
  return merged;
}

/**
 * Length of `mergeInto(part, next)`'s text, without building it.
 *
 * @example
 * mergedLength(queues, deprecated) <= maxChunkChars; // whether the merge fits
 */
export function mergedLength(part: Part, next: Part): number {
  return part.length + appendedLength(part.pieces.length === 0, next);
}

/**
 * Length of `prependTo(part, next)`'s text, without building it.
 *
 * @example
 * prependedLength(badges, install) <= maxChunkChars; // whether the merge fits
 */
export function prependedLength(part: Part, next: Part): number {
  return lengthAsText(part) + appendedLength(part.pieces.length === 0 && part.headingPiece === undefined, next);
}

/** Characters `next`'s heading line and pieces add after a text (or as the text, when it is empty). */
function appendedLength(empty: boolean, next: Part): number {
  let length = 0;
  let first = empty;
  if (next.headingPiece) {
    length += addedLength(first, next.headingPiece);
    first = false;
  }
  const head = next.pieces[0];
  if (head) length += addedLength(first, head) + next.length - addedLength(true, head);
  return length;
}

/** Length of a part's text with its heading line as the first line. */
function lengthAsText(part: Part): number {
  const heading = part.headingPiece;
  const head = part.pieces[0];
  if (!heading) return part.length;
  return heading.text.length + (head ? part.length - addedLength(true, head) + addedLength(false, head) : 0);
}

/**
 * The part's text: its pieces joined by their source gaps, a leading table row with its header.
 *
 * @example
 * partText(part); // '| Code | Meaning |\n| --- | --- |\n| E02 | ... |'
 */
export function partText(part: Part): string {
  let text = '';
  part.pieces.forEach((piece, index) => {
    if (index > 0) text += piece.gapBefore + piece.text;
    else text += piece.tableHeader === undefined ? piece.text : `${piece.tableHeader}\n${piece.text}`;
  });
  return text;
}

/**
 * First and last source line of a part, its heading line included.
 *
 * @example
 * partLines(part); // { startLine: 7, endLine: 9 }
 */
export function partLines(part: Part): { startLine: number; endLine: number } {
  const first = part.headingPiece ?? part.pieces[0]!;
  const last = part.pieces[part.pieces.length - 1] ?? part.headingPiece!;
  return { startLine: first.startLine, endLine: last.endLine };
}
