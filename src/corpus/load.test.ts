import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AtlasError } from '../errors.ts';
import { loadCorpus, slugFromPath } from './index.ts';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

describe('loadCorpus', () => {
  const temporary: string[] = [];
  afterEach(async () => {
    await Promise.all(temporary.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('loads .md and .mdx pages recursively, sorted by path', async () => {
    const { docs, problems } = await loadCorpus(join(fixtures, 'good'));
    expect(problems).toEqual([]);
    expect(docs.map((doc) => [doc.sourcePath, doc.docId, doc.title, doc.appliesTo])).toEqual([
      ['crlf-bom.md', 'crlf-bom', 'Windows page', 'all'],
      ['guides/advanced.mdx', 'guides-advanced', 'Advanced usage', 'all'],
      ['guides/install.md', 'install', 'install', '3.x'],
      ['index.md', 'index', 'Welcome', 'all'],
    ]);
  });

  it('reads a CRLF page with a BOM with exact lines and LF text', async () => {
    // minChunkChars 0 keeps the one-line sections apart, so each line range is checked.
    const { docs } = await loadCorpus(join(fixtures, 'good'), { minChunkChars: 0 });
    expect(docs[0]!.chunks.map(({ chunkId, heading, text, startLine, endLine }) => ({ chunkId, heading, text, startLine, endLine }))).toEqual([
      { chunkId: 'crlf-bom#0', heading: 'Windows page', text: 'Intro line.', startLine: 4, endLine: 4 },
      { chunkId: 'crlf-bom#1', heading: 'Section', text: 'Body line.', startLine: 6, endLine: 8 },
    ]);
  });

  it('keeps labels, drops MDX imports/exports and JSX tags, and merges chunks too small to stand alone', async () => {
    const { docs } = await loadCorpus(join(fixtures, 'good'));
    const install = docs.find((doc) => doc.docId === 'install')!;
    expect(install.labels).toEqual({ acl: ['staff', 'admins'], team: 'platform' });
    expect(install.chunks.at(-1)!.labels).toEqual({ acl: ['staff', 'admins'], team: 'platform' });
    const advanced = docs.find((doc) => doc.docId === 'guides-advanced')!;
    // "Use the CLI." has fewer than 20 letters: it leads into the next chunk, which names the result.
    expect(advanced.chunks.map(({ heading, text, startLine, endLine }) => ({ heading, text, startLine, endLine }))).toEqual([
      { heading: 'Tuning', text: 'Use the CLI.\n\n## Tuning\n\nRaise the concurrency.', startLine: 8, endLine: 14 },
    ]);
    const separate = (await loadCorpus(join(fixtures, 'good'), { minChunkChars: 0 })).docs.find((doc) => doc.docId === 'guides-advanced')!;
    expect(separate.chunks.map((chunk) => chunk.text)).toEqual(['Use the CLI.', 'Raise the concurrency.']);
  });

  it('skips dot-folders, dot-files, node_modules and other extensions; follows symlinked files', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atlas-corpus-'));
    temporary.push(root);
    const page = (path: string, text: string) => writeFile(join(root, path), text);
    await mkdir(join(root, '.git'), { recursive: true });
    await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
    await mkdir(join(root, 'Sub'), { recursive: true });
    await page('.git/notes.md', 'Hidden.');
    await page('node_modules/pkg/readme.md', 'Dependency.');
    await page('.draft.md', 'Draft.');
    await page('readme.txt', 'Not markdown.');
    await page('b.md', 'Page b.');
    await page('Sub/Page.MDX', 'Upper-case extension.');
    await symlink(join(root, 'b.md'), join(root, 'a-link.md'));
    const { docs, problems } = await loadCorpus(root);
    expect(problems).toEqual([]);
    expect(docs.map((doc) => [doc.sourcePath, doc.docId])).toEqual([
      ['Sub/Page.MDX', 'sub-page'],
      ['a-link.md', 'a-link'],
      ['b.md', 'b'],
    ]);
  });

  it('reports every problem of the folder together and keeps the valid pages', async () => {
    const { docs, problems } = await loadCorpus(join(fixtures, 'bad'));
    expect(docs.map((doc) => [doc.sourcePath, doc.docId])).toEqual([
      ['a-first.md', 'shared'],
      ['h-ok.md', 'h-ok'],
    ]);
    expect(problems).toEqual([
      { file: 'b-second.md', field: 'id',
        message: 'id "shared" is used by both a-first.md and b-second.md. Give one of them a unique id in its front matter, e.g. id: "shared-2".' },
      { file: 'c-yaml.md', line: 3, field: 'front matter',
        message: 'front matter is not valid YAML at column 27: Missing closing "quote. Fix the YAML syntax; quote values that contain ": " or " #".' },
      { file: 'd-fields.md', line: 2, field: 'id',
        message: 'id must start with a letter or digit and use only letters, digits, ".", "_" and "-", got "my page". Use e.g. id: "my-page".' },
      { file: 'd-fields.md', line: 3, field: 'applies_to',
        message: 'applies_to must be a string such as "3.x" or "all", got 3. Quote it: applies_to: "3.x".' },
      { file: 'd-fields.md', line: 5, field: 'labels.acl',
        message: 'labels.acl must be a string or a list of strings, got 5. Quote it: acl: "5".' },
      { file: 'e-binary.md', line: 1, field: 'encoding',
        message: 'file looks binary, got a NUL byte at byte offset 6. Only UTF-8 markdown (.md, .mdx) can be indexed: move the file out of the docs folder.' },
      { file: 'f-latin1.md', line: 2, field: 'encoding',
        message: 'file is not valid UTF-8, got an invalid byte sequence at byte offset 14. Re-save it as UTF-8.' },
      { file: 'g-empty.md', field: 'content',
        message: 'page has no text besides its front matter and title, got an empty body. Write some content, or delete the file.' },
    ]);
  });

  it('reports two pages whose derived ids collide', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atlas-corpus-'));
    temporary.push(root);
    await mkdir(join(root, 'a'));
    await writeFile(join(root, 'a-b.md'), 'One.');
    await writeFile(join(root, 'a', 'b.md'), 'Two.');
    const { docs, problems } = await loadCorpus(root);
    expect(docs.map((doc) => doc.sourcePath)).toEqual(['a-b.md']);
    expect(problems).toEqual([
      { file: 'a/b.md', field: 'id',
        message: 'id "a-b" is used by both a-b.md and a/b.md. Give one of them a unique id in its front matter, e.g. id: "a-b-2".' },
    ]);
  });

  it('throws a usage error when the root is missing or is a file', async () => {
    const missing = join(fixtures, 'no-such-folder');
    await expect(loadCorpus(missing)).rejects.toThrow(AtlasError);
    await expect(loadCorpus(missing)).rejects.toThrow(
      `Atlas: docs folder ${JSON.stringify(missing)} does not exist. Pass the folder that holds your .md pages, e.g. atlas ingest ./docs.`,
    );
    const file = join(fixtures, 'good', 'index.md');
    await expect(loadCorpus(file)).rejects.toThrow(
      `Atlas: ${JSON.stringify(file)} is a file, not a docs folder. Pass the folder that holds your .md pages, e.g. atlas ingest ./docs.`,
    );
  });
});

describe('slugFromPath', () => {
  it.each([
    ['library/add-job.md', 'library-add-job'],
    ['Guides/Getting Started.mdx', 'guides-getting-started'],
    ['v1.2/notes_x.md', 'v1-2-notes-x'],
    ['_index.md', 'index'],
    ['_.md', ''],
  ])('%s -> %s', (path, slug) => {
    expect(slugFromPath(path)).toBe(slug);
  });
});
