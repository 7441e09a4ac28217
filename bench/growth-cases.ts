/** Hostile and large inputs of issue 9 item 8 (and item 7's deep nesting), each at any scale. */
export interface GrowthCase {
  name: string;
  /** What the input is at scale 1. */
  description: string;
  /** The page's markdown at `scale` times the base size. */
  markdown(scale: number): string;
}

const lines = (count: number, line: (n: number) => string) => Array.from({ length: count }, (_, n) => line(n)).join('\n');

/**
 * The cases `bench/parse-growth.ts` times at 1x, 2x, 4x and 8x.
 *
 * @example
 * GROWTH_CASES.find((growth) => growth.name === 'short-lines')!.markdown(1).length; // about 400 KB
 */
export const GROWTH_CASES: readonly GrowthCase[] = [
  {
    name: 'short-lines',
    description: 'one paragraph of 40k short lines (400 KB)',
    markdown: (scale) => `# Lines\n\n${lines(40_000 * scale, (n) => `w ${n} x`)}\n`,
  },
  {
    name: 'code-fence',
    description: 'one 6 MB code fence',
    markdown: (scale) => `# Code\n\n\`\`\`ts\n${lines(140_000 * scale, (n) => `const value${n} = compute(${n}); // step`)}\n\`\`\`\n`,
  },
  {
    name: 'long-table',
    description: 'a table of 20k rows with inline HTML (0.8 MB), split with its header repeated',
    markdown: (scale) => `# Table\n\n| Key | Value |\n| --- | --- |\n${lines(20_000 * scale, (n) => `| key_${n} | value <b>${n}</b> \`code\` |`)}\n`,
  },
  {
    name: 'long-list',
    description: 'a list of 20k items (550 KB), split between items',
    markdown: (scale) => `# List\n\n${lines(20_000 * scale, (n) => `- item ${n} says something`)}\n`,
  },
  {
    name: 'many-sections',
    description: '5k sections of a heading and a paragraph (390 KB)',
    markdown: (scale) => `# Sections\n\n${lines(5_000 * scale, (n) => `## Section ${n}\n\nThe text of section ${n} is long enough to stand on its own.\n`)}\n`,
  },
  {
    name: 'nested-dashes',
    description: '`- ` x 3000 on one line',
    markdown: (scale) => `# Deep\n\n${'- '.repeat(3000 * scale)}deep\n`,
  },
  {
    name: 'nested-quotes',
    description: '`>` x 10000 on one line',
    markdown: (scale) => `# Deep\n\n${'>'.repeat(10_000 * scale)} deep\n`,
  },
  {
    name: 'unmatched-backticks',
    description: '40k lines with an unclosed backtick and a tag each (500 KB)',
    markdown: (scale) => `# Ticks\n\n${lines(40_000 * scale, (n) => `a \` <i>${n}`)}\n`,
  },
];
