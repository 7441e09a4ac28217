import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AtlasError } from '../errors.ts';
import { loadCorpus, nodeCorpusFileSystem, slugFromPath, type CorpusFileSystem } from './index.ts';

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
    await page('readme.rst', 'Not a format Atlas reads.');
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

describe('loadCorpus: nothing outside the docs folder, every unreadable entry reported', () => {
  const temporary: string[] = [];
  afterEach(async () => {
    await Promise.all(temporary.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });
  const folder = async () => {
    const base = await mkdtemp(join(tmpdir(), 'atlas-links-'));
    temporary.push(base);
    await mkdir(join(base, 'docs', 'guides'), { recursive: true });
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.md'), '# Secret\n\nroot:x:0:0:root:/root:/bin/bash\n');
    await writeFile(join(base, 'docs', 'guides', 'install.md'), '# Install\n\nRun the installer once.\n');
    return { base, root: join(base, 'docs') };
  };

  it('refuses links to files and folders outside the root, dangling links and loops, and lists the rest', async () => {
    const { base, root } = await folder();
    await symlink(join(base, 'outside', 'secret.md'), join(root, 'passwd.md'));
    await symlink('../outside', join(root, 'more'));
    await symlink(join(root, 'guides', 'install.md'), join(root, 'setup.md'));
    await symlink('guides', join(root, 'latest'));
    await symlink('gone.md', join(root, 'dangling.md'));
    await symlink('loop-b.md', join(root, 'loop-a.md'));
    await symlink('loop-a.md', join(root, 'loop-b.md'));
    const { docs, problems } = await loadCorpus(root);
    // setup.md is followed once (its target is inside); latest/ is not walked (guides/ already is).
    expect(docs.map((doc) => doc.sourcePath)).toEqual(['guides/install.md', 'setup.md']);
    const outside = join(base, 'outside');
    expect(problems).toEqual([
      { file: 'dangling.md', field: 'symlink', message: 'the link points to nothing (its target does not exist). Point it at a page, or delete it.' },
      { file: 'loop-a.md', field: 'symlink', message: 'the link is a loop (it leads back to itself) and resolves to no file. Point it at a page, or delete it.' },
      { file: 'loop-b.md', field: 'symlink', message: 'the link is a loop (it leads back to itself) and resolves to no file. Point it at a page, or delete it.' },
      { file: 'more', field: 'symlink',
        message: `the link leads to a folder outside the docs folder (${outside}); it is not indexed, so nothing outside the folder you pointed at is read. Copy its pages into the docs folder instead, or delete the link.` },
      { file: 'passwd.md', field: 'symlink',
        message: `the link leads to a file outside the docs folder (${join(outside, 'secret.md')}); it is not indexed, so nothing outside the folder you pointed at is read. Copy the page into the docs folder instead, or delete the link.` },
    ]);
  });

  it('judges links against the real path of a root that is itself a link', async () => {
    const { base, root } = await folder();
    await symlink(root, join(base, 'docs-link'));
    await symlink('guides/install.md', join(root, 'setup.md'));
    const { docs, problems } = await loadCorpus(join(base, 'docs-link'));
    expect([docs.map((doc) => doc.sourcePath), problems]).toEqual([['guides/install.md', 'setup.md'], []]);
  });

  // Tests run as root here, where chmod 000 does not deny reading: the denial is injected at the
  // file system seam instead, with the error Node raises (code EACCES).
  const denied = (path: string) => Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
  const denying = (paths: string[]): CorpusFileSystem => ({
    ...nodeCorpusFileSystem,
    readdir: async (path) => (paths.some((end) => path.endsWith(end)) ? Promise.reject(denied(path)) : nodeCorpusFileSystem.readdir(path)),
    readFile: async (path) => (paths.some((end) => path.endsWith(end)) ? Promise.reject(denied(path)) : nodeCorpusFileSystem.readFile(path)),
  });

  it('reports an unreadable page and an unreadable subfolder as problems and keeps the rest', async () => {
    const { root } = await folder();
    await mkdir(join(root, 'private'));
    await writeFile(join(root, 'private', 'plans.md'), '# Plans\n\nSecret plans.\n');
    await writeFile(join(root, 'locked.md'), '# Locked\n\nCannot be read.\n');
    const { docs, problems } = await loadCorpus(root, { fs: denying(['/private', '/locked.md']) });
    expect(docs.map((doc) => doc.sourcePath)).toEqual(['guides/install.md']);
    expect(problems).toEqual([
      { file: 'locked.md', field: 'access', message: 'cannot read this page: permission denied (EACCES). Make it readable (chmod a+r), or move it out of the docs folder.' },
      { file: 'private', field: 'access', message: 'cannot list this folder: permission denied (EACCES). Make it readable (chmod a+rx), or move it out of the docs folder.' },
    ]);
  });

  it('throws an AtlasError naming the root, the cause and the fix when the root cannot be listed', async () => {
    const { root } = await folder();
    await expect(loadCorpus(root, { fs: denying(['/docs']) })).rejects.toThrow(
      new AtlasError('invalid-corpus', `Atlas: cannot read the docs folder ${JSON.stringify(root)}: permission denied (EACCES). Make it readable (chmod a+rx).`),
    );
    const long = join(root, 'x'.repeat(300));
    await expect(loadCorpus(long)).rejects.toThrow(
      `Atlas: cannot read the docs folder ${JSON.stringify(long)}: the path is too long (ENAMETOOLONG). Shorten the names of its folders, or move it higher up.`,
    );
    const under = join(root, 'guides', 'install.md', 'more');
    await expect(loadCorpus(under)).rejects.toThrow(
      `Atlas: cannot read the docs folder ${JSON.stringify(under)}: a part of the path is a file, not a folder (ENOTDIR). Pass the path of a folder, e.g. atlas ingest ./docs.`,
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
