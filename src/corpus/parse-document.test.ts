import { describe, expect, it } from 'vitest';
import { AtlasError } from '../errors.ts';
import { parseDocument, type ChunkingOptions } from './index.ts';
import type { Doc } from './types.ts';

/** Parses a page that must be valid. */
function parse(path: string, text: string, options?: ChunkingOptions): Doc {
  const result = parseDocument({ path, bytes: Buffer.from(text) }, options);
  if (!result.ok) throw new Error(`expected a valid page, got ${JSON.stringify(result.problems)}`);
  return result.doc;
}

/** The fields of each chunk that say where it is and what it holds. */
function outline(doc: Doc) {
  return doc.chunks.map(({ chunkId, ord, heading, headingPath, text, startLine, endLine, prevChunkId, nextChunkId }) => ({
    chunkId, ord, heading, headingPath, text, startLine, endLine, prevChunkId, nextChunkId,
  }));
}

const QUEUES = [
  '---', //                      1
  'title: Queues', //            2
  'labels:', //                  3
  '  team: core', //             4
  '---', //                      5
  'Intro text.', //              6
  '', //                         7
  '## Create', //                8
  '', //                         9
  'Make a queue.', //            10
  '', //                         11
  '### Options', //              12
  '', //                         13
  'Pass `name`.', //             14
  '', //                         15
  '## Delete', //                16
  '', //                         17
  'Remove it.', //               18
  '',
].join('\n');

describe('parseDocument: sections', () => {
  it('makes one chunk per ## section, deeper headings inside, section 0 before the first ##', () => {
    const doc = parse('guides/queues.md', QUEUES);
    expect(doc.docId).toBe('guides-queues');
    expect(doc.title).toBe('Queues');
    expect(outline(doc)).toEqual([
      { chunkId: 'guides-queues#0', ord: 0, heading: 'Queues', headingPath: ['Queues'], text: 'Intro text.',
        startLine: 6, endLine: 6, prevChunkId: undefined, nextChunkId: 'guides-queues#1' },
      { chunkId: 'guides-queues#1', ord: 1, heading: 'Create', headingPath: ['Queues', 'Create'],
        text: 'Make a queue.\n\n### Options\n\nPass `name`.', startLine: 8, endLine: 14,
        prevChunkId: 'guides-queues#0', nextChunkId: 'guides-queues#2' },
      { chunkId: 'guides-queues#2', ord: 2, heading: 'Delete', headingPath: ['Queues', 'Delete'], text: 'Remove it.',
        startLine: 16, endLine: 18, prevChunkId: 'guides-queues#1', nextChunkId: undefined },
    ]);
    for (const chunk of doc.chunks) {
      expect(chunk).toMatchObject({ docId: 'guides-queues', title: 'Queues', appliesTo: 'all',
        labels: { team: 'core' }, sourcePath: 'guides/queues.md' });
    }
  });

  it('drops the # title line and emits no empty section 0; ords start at 0', () => {
    const doc = parse('page.md', '# Title\n\n## One\nText one.\n');
    expect(doc.title).toBe('Title');
    expect(outline(doc)).toEqual([
      { chunkId: 'page#0', ord: 0, heading: 'One', headingPath: ['Title', 'One'], text: 'Text one.',
        startLine: 3, endLine: 4, prevChunkId: undefined, nextChunkId: undefined },
    ]);
  });

  it('drops a leading # heading even when front matter sets the title', () => {
    const doc = parse('page.md', '---\ntitle: From front matter\n---\n# Page heading\n\nIntro.\n');
    expect(doc.title).toBe('From front matter');
    expect(outline(doc)[0]).toMatchObject({ heading: 'From front matter', text: 'Intro.', startLine: 6, endLine: 6 });
  });

  it('keeps a # or ## inside code fences as code', () => {
    const source = ['## Example', '', '```md', '# Not a title', '## Not a section', '```', '', '~~~', '## Also not', '~~~', ''].join('\n');
    const doc = parse('fences.md', source);
    expect(doc.title).toBe('fences');
    expect(outline(doc)).toEqual([
      { chunkId: 'fences#0', ord: 0, heading: 'Example', headingPath: ['fences', 'Example'],
        text: '```md\n# Not a title\n## Not a section\n```\n\n~~~\n## Also not\n~~~', startLine: 1, endLine: 10,
        prevChunkId: undefined, nextChunkId: undefined },
    ]);
  });

  it('keeps an empty ## section as a chunk with empty text', () => {
    const doc = parse('page.md', 'Intro.\n\n## Empty\n## Full\n\nText.\n');
    expect(outline(doc).map(({ heading, text, startLine, endLine }) => ({ heading, text, startLine, endLine }))).toEqual([
      { heading: 'page', text: 'Intro.', startLine: 1, endLine: 1 },
      { heading: 'Empty', text: '', startLine: 3, endLine: 3 },
      { heading: 'Full', text: 'Text.', startLine: 4, endLine: 6 },
    ]);
  });

  it('keeps tables and lists verbatim (GFM)', () => {
    const table = '| Flag | Default |\n| ---- | ------- |\n| `-c` | none    |';
    const list = '- one\n  - nested\n- two';
    const doc = parse('page.md', `## Data\n\n${table}\n\n${list}\n`);
    expect(doc.chunks[0]!.text).toBe(`${table}\n\n${list}`);
  });
});

describe('parseDocument: splitting long sections', () => {
  const SPLIT = [
    '---', //                         1
    'title: Split', //                2
    '---', //                         3
    '## Long', //                     4
    '', //                            5
    'Alpha paragraph one.', //        6  (20 chars)
    '', //                            7
    'Beta paragraph two.', //         8  (19 chars)
    '', //                            9
    '### Detail', //                  10 (10 chars)
    '', //                            11
    'Gamma paragraph three.', //      12 (22 chars)
    '', //                            13
    'Delta four.', //                 14 (11 chars)
    '',
  ].join('\n');

  it('splits between top-level blocks, numbers parts in order and carries deeper headings', () => {
    const doc = parse('split.md', SPLIT, { maxChunkChars: 40 });
    expect(outline(doc)).toEqual([
      { chunkId: 'split#0', ord: 0, heading: 'Long', headingPath: ['Split', 'Long'], text: 'Alpha paragraph one.',
        startLine: 4, endLine: 6, prevChunkId: undefined, nextChunkId: 'split#1' },
      { chunkId: 'split#1', ord: 1, heading: 'Long', headingPath: ['Split', 'Long'],
        text: 'Beta paragraph two.\n\n### Detail', startLine: 8, endLine: 10, prevChunkId: 'split#0', nextChunkId: 'split#2' },
      { chunkId: 'split#2', ord: 2, heading: 'Long', headingPath: ['Split', 'Long', 'Detail'],
        text: 'Gamma paragraph three.\n\nDelta four.', startLine: 12, endLine: 14, prevChunkId: 'split#1', nextChunkId: undefined },
    ]);
  });

  it('does not split a section that fits', () => {
    const doc = parse('split.md', SPLIT);
    expect(doc.chunks.map((chunk) => chunk.chunkId)).toEqual(['split#0']);
  });

  it('never splits inside a code fence: an oversized fence stays whole', () => {
    const fence = ['```sh', 'echo one', '', 'echo two', '', 'echo three with a long line to go over the limit', '```'].join('\n');
    const doc = parse('fence.md', `## Run\n\nShort intro.\n\n${fence}\n\nAfter.\n`, { maxChunkChars: 40 });
    expect(doc.chunks.map((chunk) => chunk.text)).toEqual(['Short intro.', fence, 'After.']);
    expect(fence.length).toBeGreaterThan(40);
    expect(doc.chunks.map(({ startLine, endLine }) => [startLine, endLine])).toEqual([[1, 3], [5, 11], [13, 13]]);
  });

  it('keeps a multi-paragraph :::admonition together', () => {
    const admonition = ':::tip\n\nFirst tip line.\n\nSecond tip line.\n\n:::';
    const doc = parse('tip.md', `## Notes\n\n${admonition}\n\nAfter the tip.\n`, { maxChunkChars: 40 });
    expect(doc.chunks.map((chunk) => chunk.text)).toEqual([admonition, 'After the tip.']);
  });

  it('rejects a maxChunkChars that is not a positive integer', () => {
    const call = () => parseDocument({ path: 'a.md', bytes: Buffer.from('Text.') }, { maxChunkChars: 0 });
    expect(call).toThrow(AtlasError);
    expect(call).toThrow('Atlas: maxChunkChars must be a positive integer, got 0. Pass e.g. { maxChunkChars: 1800 }.');
  });
});

describe('parseDocument: ids and hashes', () => {
  it('gives the same ids and chunks for the same bytes, and keeps earlier ids when a section is appended', () => {
    const first = parse('guides/queues.md', QUEUES);
    expect(parse('guides/queues.md', QUEUES)).toEqual(first);
    const longer = parse('guides/queues.md', `${QUEUES}\n## Rename\n\nRename it.\n`);
    expect(longer.chunks.slice(0, 2)).toEqual(first.chunks.slice(0, 2));
    expect(longer.chunks.map((chunk) => chunk.chunkId)).toEqual([
      'guides-queues#0', 'guides-queues#1', 'guides-queues#2', 'guides-queues#3',
    ]);
  });

  it('hashes the raw bytes with the chunking options', () => {
    const hash = parse('a.md', 'Text.').contentHash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(parse('a.md', 'Text.').contentHash).toBe(hash);
    expect(parse('a.md', 'Text.', { maxChunkChars: 1800 }).contentHash).toBe(hash);
    expect(parse('a.md', 'Text.', { maxChunkChars: 500 }).contentHash).not.toBe(hash);
    expect(parse('a.md', 'Text!').contentHash).not.toBe(hash);
    expect(parse('a.md', 'Text.\r\n').contentHash).not.toBe(parse('a.md', 'Text.\n').contentHash);
  });
});

describe('parseDocument: defaults and front matter', () => {
  it('derives id from the path, title from the file name, applies_to "all", no labels', () => {
    const doc = parse('Guides/Getting Started.md', 'Just text.\n');
    expect(doc).toMatchObject({ docId: 'guides-getting-started', title: 'Getting Started', appliesTo: 'all', labels: {} });
  });

  it('takes the title from the first # heading, as plain text', () => {
    expect(parse('a.md', '# Using `orbit` *fast*\n\nText.\n').title).toBe('Using orbit fast');
  });

  it('reads id, title, applies_to and labels, and ignores unknown fields', () => {
    const source = [
      '---', 'id: Orbit.Install_2', 'title: "Install: quick"', 'applies_to: "3.x"', 'sidebar_position: 3',
      'description: Docusaurus field', 'tags: [a, b]', 'labels:', '  acl: [staff, admins]', '  team: platform', '---', 'Text.',
    ].join('\n');
    expect(parse('install.md', source)).toMatchObject({
      docId: 'Orbit.Install_2', title: 'Install: quick', appliesTo: '3.x', labels: { acl: ['staff', 'admins'], team: 'platform' },
    });
  });

  it('reads CRLF line endings and a UTF-8 BOM like LF', () => {
    const crlf = parseDocument({ path: 'guides/queues.md', bytes: Buffer.from(`\uFEFF${QUEUES.replace(/\n/g, '\r\n')}`) });
    expect(crlf.ok && crlf.doc.chunks).toEqual(parse('guides/queues.md', QUEUES).chunks);
  });

  it('drops top-level import/export lines of .mdx pages, not of .md pages', () => {
    const source = "import Tabs from '@theme/Tabs';\n\n# Advanced\n\nexport const x = 1;\n\n<Tabs>Use it.</Tabs>\n";
    const mdx = parse('advanced.mdx', source);
    expect(mdx.title).toBe('Advanced');
    expect(outline(mdx)).toMatchObject([{ chunkId: 'advanced#0', text: '<Tabs>Use it.</Tabs>', startLine: 7, endLine: 7 }]);
    // In a .md page the import is text, so the # heading is not leading: it opens a section.
    expect(parse('advanced.md', source).chunks.map(({ heading, text }) => ({ heading, text }))).toEqual([
      { heading: 'Advanced', text: "import Tabs from '@theme/Tabs';" },
      { heading: 'Advanced', text: 'export const x = 1;\n\n<Tabs>Use it.</Tabs>' },
    ]);
  });
});

describe('integer ids', () => {
  it('reads an unquoted integer id (id: 3642) as the string "3642"', () => {
    const result = parseDocument({ path: 'pages/x.md', bytes: Buffer.from('---\nid: 3642\n---\n# Page\n\nSome text here.\n') });
    expect(result.ok && result.doc.docId).toBe('3642');
    expect(result.ok && result.doc.chunks.map((chunk) => chunk.chunkId)).toEqual(['3642#0']);
  });
});
