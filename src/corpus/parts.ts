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
  /** Letters and digits in `text`, see {@link meaningfulLength}. */
  meaningful: number;
  /** A short paragraph ending with a colon, introducing what follows (see {@link isLeadIn}). */
  leadIn?: boolean;
}

/** A chunk in the making: the pieces of one span of the page and the heading it is named after. */
export interface Part {
  /** Index of the section the part starts in. */
  section: number;
  /** Title, then the headings enclosing the part's start. */
  headingPath: string[];
  /** The heading line the part starts at and is named after; not in its text unless merged after another part. */
  headingPiece?: Piece;
  pieces: Piece[];
  /** Length of the rendered text. */
  length: number;
  /** Sum of the meaningful lengths of the heading line and the pieces. */
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

/** Adds a piece at the end of a part, keeping its lengths up to date. */
export function appendPiece(part: Part, piece: Piece): void {
  part.length += addedLength(part.pieces.length === 0, piece);
  part.meaningful += piece.meaningful;
  part.pieces.push(piece);
}

/** Characters a piece adds to a text: its separating gap, or the repeated table header when it comes first. */
export function addedLength(first: boolean, piece: Piece): number {
  if (!first) return piece.gapBefore.length + piece.text.length;
  return piece.tableHeader === undefined ? piece.text.length : piece.tableHeader.length + 1 + piece.text.length;
}

/** Appends `next` to `part`: `next`'s heading line becomes text, `part` keeps its name. */
export function mergeInto(part: Part, next: Part): void {
  if (next.headingPiece) appendPiece(part, next.headingPiece);
  for (const piece of next.pieces) appendPiece(part, piece);
}

/**
 * Puts `part` in front of `next` and names the result after `next`, whose content it is: both
 * heading lines become text, since the result starts above them. Reuses `part`'s piece list.
 */
export function prependTo(part: Part, next: Part): Part {
  const pieces = part.headingPiece ? [part.headingPiece, ...part.pieces] : part.pieces;
  const merged: Part = { section: next.section, headingPath: next.headingPath, pieces, length: lengthAsText(part), meaningful: part.meaningful };
  mergeInto(merged, next);
  return merged;
}

/** Length of `mergeInto(part, next)`'s text, without building it. */
export function mergedLength(part: Part, next: Part): number {
  return part.length + appendedLength(part.pieces.length === 0, next);
}

/** Length of `prependTo(part, next)`'s text, without building it. */
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

/** The part's text: its pieces joined by their source gaps, a leading table row with its header. */
export function partText(part: Part): string {
  let text = '';
  part.pieces.forEach((piece, index) => {
    if (index > 0) text += piece.gapBefore + piece.text;
    else text += piece.tableHeader === undefined ? piece.text : `${piece.tableHeader}\n${piece.text}`;
  });
  return text;
}

/** First and last source line of a part, its heading line included. */
export function partLines(part: Part): { startLine: number; endLine: number } {
  const first = part.headingPiece ?? part.pieces[0]!;
  const last = part.pieces[part.pieces.length - 1] ?? part.headingPiece!;
  return { startLine: first.startLine, endLine: last.endLine };
}

/** A markdown link or image with no brackets in its label: `[label](url)`, `![alt](src)`. */
const LINK = /!?\[[^[\]\n]*\]\([^()\n]*\)/g;

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
  return type === 'paragraph' && text.length <= MAX_LEAD_IN_CHARS && /[^:\s]:\s*$/.test(text) && !/[.!?]\s/.test(text) && !text.startsWith(':::');
}

/**
 * How much a text says in its own words: its letters and digits (any non-ASCII character
 * counts), leaving out images, links (label and target: a link points elsewhere), reference
 * definitions and bare URLs. A badge line, a link-only table of contents or a "See [X](x.md)."
 * pointer count (almost) nothing.
 *
 * @example
 * meaningfulLength('[![npm](https://img.shields.io/npm/v/x.svg)](https://npm.im/x)'); // 0
 * meaningfulLength('- [Install](#install)\n- [Usage](#usage)'); // 0
 * meaningfulLength('See [Install](./install.md) first.'); // 8
 */
export function meaningfulLength(text: string): number {
  // Links without nested brackets, twice: a badge is an image inside a link. Linear: no pattern
  // here can rescan past the next bracket, parenthesis or line end.
  const stripped = text
    .replace(LINK, '')
    .replace(LINK, '')
    .replace(/^[ \t]*\[[^\]\n]+\]:[ \t]*\S+.*$/gm, '')
    .replace(/\b(?:https?|ftp):\/\/[^\s)>\]]+/g, '');
  let count = 0;
  for (let index = 0; index < stripped.length; index++) {
    const code = stripped.charCodeAt(index);
    if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127) count++;
  }
  return count;
}
