import { parseBlocks, type Block } from './blocks.ts';
import { htmlToText } from './html.ts';

/**
 * A heading of depth <= `splitDepth` and its own blocks up to the next such heading. Section 0
 * (depth 0, no heading) holds the text before the first heading; it encloses every other section.
 */
export interface Section {
  /** Heading depth, 0 for section 0. */
  depth: number;
  /** The heading block; `undefined` for section 0. */
  heading?: Block;
  /** Texts of the enclosing headings from the top, ending with this one's (`[]` for section 0). */
  headingPath: string[];
  /** Blocks after the heading, up to the next section's heading. */
  blocks: Block[];
  /** Index of the last section nested in this one (its own index when none is). */
  end: number;
}

/** The sections of a markdown body, in document order, plus the text of its first `# ` heading. */
export interface ParsedBody {
  firstH1?: string;
  sections: Section[];
}

/**
 * Parses a markdown body into a flat list of nested sections: one per heading of depth
 * <= `splitDepth`, nested by depth (a `###` belongs to the `##` before it); deeper headings stay
 * inside their section's blocks. A leading title heading (`# Title`, or an HTML
 * `<h1 ...>Title</h1>` as on README-style pages) is dropped and gives `firstH1`.
 *
 * @example
 * parseSections({ body: '# T\n\nIntro\n\n## A\n\n### B\n\nText', bodyStartLine: 1, mdx: false, splitDepth: 3 });
 * // { firstH1: 'T', sections: [
 * //   { depth: 0, headingPath: [], blocks: [Intro], end: 2 },
 * //   { depth: 2, heading: A, headingPath: ['A'], blocks: [], end: 2 },
 * //   { depth: 3, heading: B, headingPath: ['A', 'B'], blocks: [Text], end: 2 }] }
 */
export function parseSections(input: { body: string; bodyStartLine: number; mdx: boolean; splitDepth: number }): ParsedBody {
  const blocks = parseBlocks(input);
  const leadingTitle = takeLeadingTitle(blocks, input.body);
  const firstH1 = leadingTitle ?? (blocks.find((block) => block.depth === 1)?.headingText || undefined);

  const sections: Section[] = [{ depth: 0, headingPath: [], blocks: [], end: 0 }];
  const open: number[] = [0];
  for (const block of blocks) {
    if (block.depth === undefined || block.depth > input.splitDepth) {
      sections[sections.length - 1]!.blocks.push(block);
      continue;
    }
    while (sections[open[open.length - 1]!]!.depth >= block.depth) sections[open.pop()!]!.end = sections.length - 1;
    const parent = sections[open[open.length - 1]!]!;
    open.push(sections.length);
    sections.push({ depth: block.depth, heading: block, headingPath: [...parent.headingPath, block.headingText ?? ''], blocks: [], end: 0 });
  }
  for (const index of open) sections[index]!.end = sections.length - 1;
  return firstH1 === undefined ? { sections } : { firstH1, sections };
}

/**
 * Removes the page's title heading when it is the first block: a `# ` heading, or an HTML block
 * that opens with `<h1 ...>...</h1>` (whatever follows the `</h1>` in that block stays).
 */
function takeLeadingTitle(blocks: Block[], body: string): string | undefined {
  const first = blocks[0];
  if (first === undefined) return undefined;
  if (first.depth === 1) {
    blocks.shift();
    return first.headingText || undefined;
  }
  if (first.type !== 'html') return undefined;
  const match = /^\s*<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(body.slice(first.start, first.end));
  if (!match) return undefined;
  const rest = htmlToText(body.slice(first.start + match[0].length, first.end));
  if (rest === '') blocks.shift();
  else first.text = rest;
  return htmlToText(match[1]!).replace(/\s+/g, ' ') || undefined;
}
