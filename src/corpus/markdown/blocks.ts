import MarkdownIt from 'markdown-it';
import { createDirectiveEnv, directiveRule, tabLines, withDirectivesRead, type Directive, type DirectiveEnv } from './directives.ts';
import { headingPlainText } from './heading-text.ts';
import { applyEdits, markupEdits, mayHoldMarkup, type Edit, type MarkupBlock } from './block-markup.ts';
import { htmlToText } from './html.ts';
import { createLineTable, type LineTable } from './line-table.ts';
import { childSpans, type ChildSpan, type Span } from './child-spans.ts';

import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type Token from 'markdown-it/lib/token.mjs';

export type { ChildSpan, Span } from './child-spans.ts';

/** One top-level block of the markdown body (paragraph, list, code fence, table, heading, ...). */
export interface Block extends Span {
  /**
   * Block type, named as mdast names them: `paragraph`, `code`, `heading`, `list`, `table`,
   * `html`, `definition`, ...; `label` for the line a directive shows instead of itself (the
   * title of a `::: tip Title` container or of a `{% tab title="npm" %}`, see `readDirective`).
   */
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
  children?: ChildSpan[];
  /**
   * Set on the blocks of a callout container (`::: warning` ... `:::`, `{% hint %}` ...
   * `{% endhint %}`), its label included: the same number (the 0-based line of the container's
   * opening) for all of them, which are read together and never cut apart.
   */
  group?: number;
}

/** Deepest container nesting parsed (a list counts 2: the list and its item; a quote 1). */
const MAX_NESTING = 100;

/**
 * The block rule that bounds nesting: past {@link MAX_NESTING} levels, the lines up to the next
 * blank line are taken as they are (they stay in the text of their top-level block), and the
 * containers around them end by the usual rules. markdown-it's own limit would instead end the
 * nested block at its container's last possible line, often the end of the page, swallowing
 * every block after it.
 */
function nestingLimit(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.level < MAX_NESTING || silent) return false;
  let line = startLine + 1;
  while (line < endLine && !state.isEmpty(line)) line++;
  state.line = line;
  return true;
}

const parserOptions = { html: true, maxNesting: 2 * MAX_NESTING };

/**
 * The block parser: markdown-it (CommonMark + GFM tables, raw HTML on) with its inline pass
 * switched off, since only the block structure and its line ranges are needed. Configured once
 * here and never changed afterwards; it keeps no state between calls. Deeply nested input
 * (`- ` x 3000, `>` x 10000) stays linear and within the stack: see {@link nestingLimit}.
 * (`maxNesting`, which @types/markdown-it does not list, only backs that rule up.)
 */
const blockParser = new MarkdownIt('default', parserOptions);
blockParser.core.ruler.disable(['normalize', 'inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);
blockParser.block.ruler.before('table', 'nesting_limit', nestingLimit);
// A directive line interrupts a paragraph, a list, a quote or a table (whose rows end where a 'blockquote' terminator starts).
blockParser.block.ruler.after('fence', 'directive', directiveRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });

/** markdown-it token types of top-level blocks -> the block types Atlas uses (mdast's names). */
const BLOCK_TYPES: Record<string, string> = {
  paragraph_open: 'paragraph',
  heading_open: 'heading',
  fence: 'code',
  code_block: 'code',
  html_block: 'html',
  bullet_list_open: 'list',
  ordered_list_open: 'list',
  blockquote_open: 'blockquote',
  table_open: 'table',
  hr: 'thematicBreak',
  directive: 'directive',
};

/** A top-level block as the parser found it: its tokens and its source span. */
interface ParsedBlock extends Span, MarkupBlock {}

/**
 * Parses a markdown body into its top-level blocks (CommonMark + GFM tables, with markdown-it's
 * block parser; one pass, linear in the body's size). Headings inside code fences are code.
 * Link reference definitions are blocks of type `definition`. Blocks that are pure HTML markup
 * (`<a name="x"></a>`, `<!-- ... -->`, `<p align="center"><img ...></p>`, `<Home />`) are left
 * out; for MDX pages, so are top-level `import`/`export` statements. Documentation-site
 * directives (`::: tip Title`, `:::`, `{% hint style="info" %}`, `{% tab title="npm" %}`; see
 * `readDirective`) are lines of their own: each becomes its label (a `label` block, `Title:`)
 * or nothing, the blocks between them stay blocks, and those of a callout share a `group`.
 *
 * @example
 * parseBlocks({ body: '## A {#a}\n\nText <br> more', bodyStartLine: 1, mdx: false }).map((block) => block.text);
 * // ['## A', 'Text \n more']
 */
export function parseBlocks(input: { body: string; bodyStartLine: number; mdx: boolean }): Block[] {
  const { body, bodyStartLine, mdx } = input;
  const env = createDirectiveEnv();
  const tokens = blockParser.parse(body, env);
  const lines = createLineTable(body);
  const inTabs = tabLines(env, lines.count);
  const lineOffset = bodyStartLine;
  const groups = createGroups(tokens, env);
  const blocks: Block[] = [];
  let previousEnd = 0;
  let dropped = false;
  for (const parsed of topLevelBlocks(tokens, lines)) {
    const group = groups.enter(parsed);
    const { start, end } = parsed;
    // A block left out still separates its neighbours: keep a blank line between them.
    const gap = body.slice(previousEnd, start);
    const gapBefore = dropped && !/\n[ \t]*\n/.test(gap) ? '\n\n' : gap;
    previousEnd = end;
    dropped = true;
    const source = body.slice(start, end);
    if (mdx && parsed.type === 'paragraph' && /^(import|export)\s/.test(source)) continue;
    const edits = mayHoldMarkup(parsed.type, source) ? markupEdits(body, tokens, parsed, lines, inTabs) : [];
    const block: Block = {
      type: parsed.type,
      start,
      end,
      startLine: parsed.startLine + lineOffset,
      endLine: parsed.endLine + lineOffset,
      text: parsed.type === 'html' ? withDirectivesRead(htmlToText(source), inTabs(parsed.startLine)) : edits.length > 0 ? applyEdits(body, start, end, edits).trim() : source,
      gapBefore,
    };
    if (parsed.type === 'directive') {
      const { label } = tokens[parsed.first]!.meta as Directive;
      block.type = 'label';
      block.text = label ?? '';
    }
    if (parsed.type === 'heading') {
      const opening = tokens[parsed.first]!;
      block.depth = Number(opening.tag.slice(1));
      block.headingText = withoutHeadingId(headingPlainText(tokens[parsed.first + 1]!.content).trim());
      block.text = withoutHeadingId(block.text);
    }
    if (parsed.type === 'list' || parsed.type === 'table') block.children = childSpans(body, tokens, parsed, lines, edits, lineOffset);
    if (block.text.trim() === '') continue;
    if (group !== undefined) block.group = group;
    blocks.push(block);
    dropped = false;
  }
  return blocks;
}

/**
 * The callout containers of a page's top level, whose blocks stay together (see
 * `Directive.kind`), once the parse has paired their lines (`env.closings`): `enter`, called with
 * each top-level block in order, gives the group the block belongs to (the line of the outermost
 * such container's opening), its opening and closing lines included. A container never closed
 * holds nothing together.
 */
function createGroups(tokens: Token[], env: DirectiveEnv): { enter(block: ParsedBlock): number | undefined } {
  let group: number | undefined;
  let groupEnd = -1;
  return {
    enter(block) {
      if (block.type !== 'directive') return group;
      const token = tokens[block.first]!;
      const line = token.map![0];
      const { kind } = token.meta as Directive;
      const closing = env.closings.get(line);
      if (group === undefined && closing !== undefined && kind === 'callout') {
        group = line;
        groupEnd = closing;
      }
      const current = group;
      if (line === groupEnd) group = undefined;
      return current;
    },
  };
}

/**
 * The top-level blocks in order, each with its source span: from its first character after the
 * indentation (an indented code block from its line start) to the last character of its last
 * non-blank line, trailing whitespace excluded. Non-blank lines no token covers are link
 * reference definitions.
 */
function* topLevelBlocks(tokens: Token[], lines: LineTable): Generator<ParsedBlock> {
  let coveredUntil = 0;
  for (let first = 0; first < tokens.length; first++) {
    const token = tokens[first]!;
    const type = BLOCK_TYPES[token.type];
    if (token.level !== 0 || type === undefined || !token.map) continue;
    let last = first;
    if (token.nesting === 1) while (last + 1 < tokens.length && !(tokens[++last]!.level === 0 && tokens[last]!.nesting === -1));
    const [from, to] = token.map;
    yield* definitions(lines, coveredUntil, from);
    coveredUntil = Math.max(coveredUntil, to);
    const span = lines.span(from, to, token.type === 'code_block');
    if (span) yield { type: type === 'paragraph' && isFootnoteDefinition(tokens[first + 1]!.content) ? 'footnoteDefinition' : type, first, last, ...span };
    first = last;
  }
  yield* definitions(lines, coveredUntil, lines.count);
}

/** A GFM footnote definition (`[^1]: ...`), which markdown-it without plugins reads as a paragraph. */
function isFootnoteDefinition(content: string): boolean {
  return content.startsWith('[^') && /^\[\^[^\]\s]+\]:/.test(content);
}

/**
 * The link reference definitions in lines `[from, to)`, which the block parser consumes without
 * a token: a block per definition, each starting at a line that opens with `[`.
 */
function* definitions(lines: LineTable, from: number, to: number): Generator<ParsedBlock> {
  for (let line = from; line < to; line++) {
    if (lines.isBlank(line)) continue;
    let end = line + 1;
    while (end < to && !lines.isBlank(end) && !lines.startsWith(end, '[')) end++;
    yield { type: 'definition', first: -1, last: -2, ...lines.span(line, end, false)! };
    line = end - 1;
  }
}

/** Drops a Docusaurus heading id: `Foo {#foo}` -> `Foo`. */
function withoutHeadingId(text: string): string {
  return text.replace(/\s*\{#[^\s{}]+\}\s*$/, '');
}
