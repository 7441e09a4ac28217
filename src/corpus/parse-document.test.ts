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

/** Keeps every non-empty chunk, however small, where merging small chunks is not what a test is about. */
const NO_MERGE: ChunkingOptions = { minChunkChars: 0 };

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
  it('makes one chunk per ## section, a short ### inside its section, section 0 before the first ##', () => {
    const doc = parse('guides/queues.md', QUEUES, NO_MERGE);
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

  it('merges sections too small to stand alone: the tiny page above is one chunk by default', () => {
    // The intro leads into "Create", which names the chunk; "Delete" joins the chunk before it.
    const doc = parse('guides/queues.md', QUEUES);
    expect(outline(doc)).toEqual([
      { chunkId: 'guides-queues#0', ord: 0, heading: 'Create', headingPath: ['Queues', 'Create'],
        text: 'Intro text.\n\n## Create\n\nMake a queue.\n\n### Options\n\nPass `name`.\n\n## Delete\n\nRemove it.',
        startLine: 6, endLine: 18, prevChunkId: undefined, nextChunkId: undefined },
    ]);
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

  it('keeps tables and lists verbatim (GFM)', () => {
    const table = '| Flag | Default |\n| ---- | ------- |\n| `-c` | none    |';
    const list = '- one\n  - nested\n- two';
    const doc = parse('page.md', `## Data\n\n${table}\n\n${list}\n`);
    expect(doc.chunks[0]!.text).toBe(`${table}\n\n${list}`);
  });
});

describe('parseDocument: ids and hashes', () => {
  it('gives the same ids and chunks for the same bytes, and keeps earlier ids when a section is appended', () => {
    const first = parse('guides/queues.md', QUEUES, NO_MERGE);
    expect(parse('guides/queues.md', QUEUES, NO_MERGE)).toEqual(first);
    const longer = parse('guides/queues.md', `${QUEUES}\n## Rename\n\nRename it.\n`, NO_MERGE);
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
    expect(parse('a.md', 'Text.', { minChunkChars: 0 }).contentHash).not.toBe(hash);
    expect(parse('a.md', 'Text.', { splitDepth: 4 }).contentHash).not.toBe(hash);
    expect(parse('a.md', 'Text.', { headingSplitChars: 1800 }).contentHash).not.toBe(hash);
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
    // JSX is HTML to markdown: its tags are dropped, its text kept.
    expect(outline(mdx)).toMatchObject([{ chunkId: 'advanced#0', text: 'Use it.', startLine: 7, endLine: 7 }]);
    // In a .md page the import is text, so the # heading is not leading: it opens a section.
    expect(parse('advanced.md', source).chunks.map(({ heading, text }) => ({ heading, text }))).toEqual([
      { heading: 'Advanced', text: "import Tabs from '@theme/Tabs';" },
      { heading: 'Advanced', text: 'export const x = 1;\n\nUse it.' },
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
