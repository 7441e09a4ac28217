import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { htmlToText, inlineHtmlText } from './html.ts';

type Root = ReturnType<typeof fromMarkdown>;
type MarkdownNode = Root['children'][number];

/** Offsets and source lines of a part of the body. */
export interface Span {
  /** Offsets into the body: `body.slice(start, end)` is the span verbatim. */
  start: number;
  end: number;
  /** 1-based lines in the source file. */
  startLine: number;
  endLine: number;
}

/** One top-level block of the markdown body (paragraph, list, code fence, table, heading, ...). */
export interface Block extends Span {
  /** mdast node type: `paragraph`, `code`, `heading`, `list`, `table`, `html`, ... */
  type: string;
  /** Heading depth (1-6), only for headings. */
  depth?: number;
  /** Plain text of a heading: inline code and emphasis markers, HTML and a `{#id}` removed. */
  headingText?: string;
  /**
   * The block as it goes into a chunk: the markdown verbatim, except that HTML is replaced by its
   * readable text (see {@link htmlToText}) and a heading loses its `{#id}`.
   */
  text: string;
  /** Whitespace between the previous top-level node and this block, verbatim. */
  gapBefore: string;
  /**
   * For a list, its items; for a table, its rows (the header row first). Each with its `text`
   * rendered like the block's and the whitespace before it within the block.
   */
  children?: (Span & { text: string; gapBefore: string })[];
}

/** One replacement of source text: an HTML node by its readable text. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Parses a markdown body with micromark + GFM into its top-level blocks. Headings inside code
 * fences are code. Blocks that are pure HTML markup (`<a name="x"></a>`, `<!-- ... -->`,
 * `<p align="center"><img ...></p>`) are left out; for MDX pages, so are top-level
 * `import`/`export` statements.
 *
 * @example
 * parseBlocks({ body: '## A {#a}\n\nText <br> more', bodyStartLine: 1, mdx: false }).map((block) => block.text);
 * // ['## A', 'Text \n more']
 */
export function parseBlocks(input: { body: string; bodyStartLine: number; mdx: boolean }): Block[] {
  const { body, bodyStartLine, mdx } = input;
  const root = fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const lineOffset = bodyStartLine - 1;
  const blocks: Block[] = [];
  let previousEnd = 0;
  let dropped = false;
  for (const node of root.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    // A block left out still separates its neighbours: keep a blank line between them.
    const gap = body.slice(previousEnd, start);
    const gapBefore = dropped && !/\n[ \t]*\n/.test(gap) ? '\n\n' : gap;
    previousEnd = end;
    dropped = true;
    const source = body.slice(start, end);
    if (mdx && isEsm(node, source)) continue;
    const edits: Edit[] = [];
    if (node.type !== 'html' && source.includes('<')) collectHtmlEdits(node, edits);
    const block: Block = {
      type: node.type,
      start,
      end,
      startLine: node.position!.start.line + lineOffset,
      endLine: node.position!.end.line + lineOffset,
      text: node.type === 'html' ? htmlToText(source) : edits.length > 0 ? applyEdits(body, start, end, edits).trim() : source,
      gapBefore,
    };
    if (node.type === 'heading') {
      block.depth = node.depth;
      block.headingText = withoutHeadingId(plainText(node).trim());
      block.text = withoutHeadingId(block.text);
    }
    if (node.type === 'list' || node.type === 'table') block.children = childSpans(body, node, edits, lineOffset);
    if (block.text.trim() === '') continue;
    blocks.push(block);
    dropped = false;
  }
  return blocks;
}

/** Drops a Docusaurus heading id: `Foo {#foo}` -> `Foo`. */
function withoutHeadingId(text: string): string {
  return text.replace(/\s*\{#[^\s{}]+\}\s*$/, '');
}

/** An MDX `import`/`export` statement, which plain markdown parses as a paragraph. */
function isEsm(node: MarkdownNode, source: string): boolean {
  return node.type === 'paragraph' && /^(import|export)\s/.test(source);
}

interface AnyNode {
  type: string;
  value?: unknown;
  alt?: unknown;
  children?: AnyNode[];
  position?: { start: { offset?: number; line: number }; end: { offset?: number; line: number } };
}

/** Replacements for the HTML nodes inside a block, in document order; in a table or a heading, on one line. */
function collectHtmlEdits(node: AnyNode, edits: Edit[], oneLine = node.type === 'table' || node.type === 'heading'): void {
  if (!node.children) return;
  for (const child of node.children) {
    if (child.type === 'html') {
      const start = child.position?.start.offset;
      const end = child.position?.end.offset;
      if (start === undefined || end === undefined) continue;
      const text = inlineHtmlText(String(child.value ?? ''));
      edits.push({ start, end, text: oneLine ? text.replace(/\n/g, ' ') : text });
    } else {
      collectHtmlEdits(child, edits, oneLine);
    }
  }
}

/** `body.slice(start, end)` with the edits that fall inside applied. */
function applyEdits(body: string, start: number, end: number, edits: readonly Edit[], from = 0): string {
  let text = '';
  let at = start;
  for (let index = from; index < edits.length; index++) {
    const edit = edits[index]!;
    if (edit.start >= end) break;
    if (edit.start < at) continue;
    text += body.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return text + body.slice(at, end);
}

/** The items of a list or the rows of a table, rendered, with the whitespace between them. */
function childSpans(body: string, node: AnyNode, edits: readonly Edit[], lineOffset: number): Block['children'] {
  const spans: NonNullable<Block['children']> = [];
  let editIndex = 0;
  let previousEnd: number | undefined;
  for (const child of node.children ?? []) {
    const start = child.position?.start.offset;
    const end = child.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    while (editIndex < edits.length && edits[editIndex]!.start < start) editIndex++;
    spans.push({
      start,
      end,
      startLine: child.position!.start.line + lineOffset,
      endLine: child.position!.end.line + lineOffset,
      text: applyEdits(body, start, end, edits, editIndex),
      gapBefore: previousEnd === undefined ? '' : body.slice(previousEnd, start),
    });
    previousEnd = end;
  }
  return spans;
}

/** Concatenated text of a node's leaves, like mdast-util-to-string, without HTML tags. */
function plainText(node: AnyNode): string {
  if (node.type === 'html') return '';
  if (typeof node.value === 'string') return node.value;
  if (node.type === 'image' && typeof node.alt === 'string') return node.alt;
  if (!Array.isArray(node.children)) return '';
  return node.children.map(plainText).join('');
}
