import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

type Root = ReturnType<typeof fromMarkdown>;
type MarkdownNode = Root['children'][number];

/** One top-level block of the markdown body (paragraph, list, code fence, table, heading, ...). */
export interface Block {
  /** mdast node type: `paragraph`, `code`, `heading`, `list`, `table`, `html`, ... */
  type: string;
  /** Heading depth (1-6), only for headings. */
  depth?: number;
  /** Plain text of a heading (inline code and emphasis markers removed). */
  headingText?: string;
  /** Offsets into the body text: `body.slice(start, end)` is the block verbatim. */
  start: number;
  end: number;
  /** Whitespace between the previous top-level node and this block, verbatim. */
  gapBefore: string;
  /** 1-based lines in the source file. */
  startLine: number;
  endLine: number;
}

/** A `##` heading and the blocks up to the next one; section 0 (no heading) is the text before. */
export interface Section {
  /** Heading text; `undefined` for section 0. */
  heading?: string;
  /** Source line of the heading. */
  headingLine?: number;
  blocks: Block[];
}

/** The sections of a markdown body, plus the text of its first `# ` heading, if any. */
export interface ParsedBody {
  firstH1?: string;
  sections: Section[];
}

/**
 * Parses a markdown body with micromark + GFM and cuts it into sections. A section starts at each
 * `##` heading (and at each `#` heading except a leading title heading, which is dropped); deeper
 * headings stay inside their section. Headings inside code fences are code, not headings.
 * For MDX pages, top-level `import`/`export` statements are dropped.
 *
 * @example
 * parseSections({ body: '# T\n\nIntro\n\n## A\n\nText', bodyStartLine: 1, mdx: false });
 * // { firstH1: 'T', sections: [{ blocks: [Intro] }, { heading: 'A', headingLine: 5, blocks: [Text] }] }
 */
export function parseSections(input: { body: string; bodyStartLine: number; mdx: boolean }): ParsedBody {
  const { body, bodyStartLine, mdx } = input;
  const root = fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const blocks: Block[] = [];
  let previousEnd = 0;
  for (const node of root.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    const gapBefore = body.slice(previousEnd, start);
    previousEnd = end;
    if (mdx && isEsm(node, body.slice(start, end))) continue;
    const block: Block = {
      type: node.type,
      start,
      end,
      gapBefore,
      startLine: node.position!.start.line + bodyStartLine - 1,
      endLine: node.position!.end.line + bodyStartLine - 1,
    };
    if (node.type === 'heading') {
      block.depth = node.depth;
      block.headingText = plainText(node).trim();
    }
    blocks.push(block);
  }

  const firstH1 = blocks.find((block) => block.depth === 1)?.headingText || undefined;
  if (blocks[0]?.depth === 1) blocks.shift();

  const sections: Section[] = [{ blocks: [] }];
  for (const block of blocks) {
    if (block.depth !== undefined && block.depth <= 2) {
      sections.push({ heading: block.headingText ?? '', headingLine: block.startLine, blocks: [] });
    } else {
      sections[sections.length - 1]!.blocks.push(block);
    }
  }
  return firstH1 === undefined ? { sections } : { firstH1, sections };
}

/** An MDX `import`/`export` statement, which plain markdown parses as a paragraph. */
function isEsm(node: MarkdownNode, source: string): boolean {
  return node.type === 'paragraph' && /^(import|export)\s/.test(source);
}

/** Concatenated text of a node's leaves, like mdast-util-to-string. */
function plainText(node: { type: string; value?: unknown; children?: unknown[]; alt?: unknown }): string {
  if (typeof node.value === 'string') return node.value;
  if (node.type === 'image' && typeof node.alt === 'string') return node.alt;
  if (!Array.isArray(node.children)) return '';
  return node.children.map((child) => plainText(child as Parameters<typeof plainText>[0])).join('');
}
