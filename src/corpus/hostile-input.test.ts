import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.ts';
import { recordingIO } from '../cli/test-cli.ts';
import { loadCorpus } from './load.ts';
import { parseDocument } from './parse-document.ts';

// Issue 9 items 7 and 8: deep nesting never crashes ingest, and big inputs parse into the
// expected structure (their time and memory growth is measured by bench/parse-growth.ts).

const DASHES = `${'- '.repeat(3000)}a deep item with enough words of its own`;
const QUOTES = `${'>'.repeat(10_000)} deep quote`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atlas-hostile-'));
  await mkdir(join(dir, 'docs'));
  await writeFile(join(dir, 'docs', 'dashes.md'), `# Dashes\n\n${DASHES}\n\n## After\n\nThe section after the deep list is its own chunk.\n`);
  await writeFile(join(dir, 'docs', 'quotes.md'), `# Quotes\n\n${QUOTES}\n`);
  await writeFile(join(dir, 'docs', 'plain.md'), '# Plain\n\nA page like any other.\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const chunksOf = (markdown: string, options = {}) => {
  const result = parseDocument({ path: 'page.md', bytes: Buffer.from(markdown) }, options);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.doc.chunks;
};

describe('deeply nested markdown', () => {
  it('loads as pages like any other, with the text kept and the sections after it', async () => {
    const { docs, problems } = await loadCorpus(join(dir, 'docs'));
    expect(problems).toEqual([]);
    expect(docs.map((doc) => doc.chunks.map((chunk) => [chunk.chunkId, chunk.headingPath, chunk.text]))).toEqual([
      [
        ['dashes#0', ['Dashes'], DASHES],
        ['dashes#1', ['Dashes', 'After'], 'The section after the deep list is its own chunk.'],
      ],
      [['plain#0', ['Plain'], 'A page like any other.']],
      [['quotes#0', ['Quotes'], QUOTES]],
    ]);
  });

  it('is ingested by atlas ingest', async () => {
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    expect(io.out.join('')).toBe('Indexed 3 docs (4 chunks) into .atlas/index.db: 3 added, 0 updated, 0 unchanged, 0 removed.\n');
    expect(await runCli(['search', 'deep quote', '--json'], io)).toBe(0);
  });
});

describe('large inputs', () => {
  it('keeps a paragraph of 40k short lines whole, in one chunk', () => {
    const lines = Array.from({ length: 40_000 }, (_, n) => `line ${n} x`).join('\n');
    const chunks = chunksOf(`# Lines\n\n${lines}\n`);
    expect(chunks.map((chunk) => [chunk.text.length, chunk.startLine, chunk.endLine])).toEqual([[lines.length, 3, 40_002]]);
    expect(chunks[0]!.text).toBe(lines);
  });

  it('keeps a 6 MB code fence whole, in one chunk', () => {
    const fence = `\`\`\`ts\n${Array.from({ length: 200_000 }, (_, n) => `const value${n} = compute(${n});`).join('\n')}\n\`\`\``;
    const chunks = chunksOf(`# Code\n\n${fence}\n`);
    expect(fence.length).toBeGreaterThan(6_000_000);
    expect(chunks.map((chunk) => chunk.text === fence)).toEqual([true]);
  });

  it('splits a 20k-row table between rows, each chunk under the bound and repeating the header', () => {
    const header = '| Key | Value |\n| --- | --- |';
    const rows = Array.from({ length: 20_000 }, (_, n) => `| key_${n} | value <b>${n}</b> |`);
    const chunks = chunksOf(`# Table\n\n${header}\n${rows.join('\n')}\n`);
    expect(chunks.length).toBe(305);
    expect(chunks.every((chunk) => chunk.text.startsWith(`${header}\n`) && chunk.text.length <= 1800)).toBe(true);
    const shown = chunks.flatMap((chunk) => chunk.text.split('\n').slice(2));
    expect(shown).toEqual(rows.map((row) => row.replace(/<\/?b>/g, '')));
  });
});
