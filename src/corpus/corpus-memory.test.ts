import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCorpusMemory } from './corpus-memory.ts';
import { nodeCorpusFileSystem, type CorpusFileSystem } from './list-pages.ts';
import { loadCorpus } from './load.ts';

// Issue 40: a docs folder read again after changes reads and parses only the pages changed.

let docs: string;
let reads: string[];
const fs: CorpusFileSystem = { ...nodeCorpusFileSystem, readFile: (path) => (reads.push(relative(docs, path)), nodeCorpusFileSystem.readFile(path)) };
const write = async (path: string, content: string) => {
  await mkdir(dirname(join(docs, path)), { recursive: true });
  await writeFile(join(docs, path), content);
};

beforeEach(async () => {
  docs = await mkdtemp(join(tmpdir(), 'atlas-memory-'));
  reads = [];
  for (const name of ['a', 'b', 'c']) await write(`${name}.md`, `# ${name}\n\nPage ${name}.\n`);
  await write('team/_atlas.yaml', 'labels:\n  acl: [staff]\n');
  await write('team/x.md', '# X\n\nPage x.\n');
  await write('team/y.md', '---\nid: [y\n---\n# Y\n');
});
afterEach(async () => {
  await rm(docs, { recursive: true, force: true });
});

const read = async (memory: ReturnType<typeof createCorpusMemory>) => {
  reads = [];
  const loaded = await loadCorpus(docs, { fs, memory, threads: 1 });
  return { reads: [...reads], docs: loaded.docs.map((doc) => [doc.sourcePath, doc.labels]), problems: loaded.problems.map((problem) => problem.file) };
};

describe('CorpusMemory', () => {
  it('reads only the pages named changed, those under a folder named, and those a rule gives other fields; the rest as last parsed, problems included', async () => {
    const memory = createCorpusMemory();
    const first = await read(memory);
    expect(first).toEqual({
      reads: ['team/_atlas.yaml', 'a.md', 'b.md', 'c.md', 'team/x.md', 'team/y.md'],
      docs: [['a.md', {}], ['b.md', {}], ['c.md', {}], ['team/x.md', { acl: ['staff'] }]],
      problems: ['team/y.md', 'team/y.md'],
    });
    expect(await read(memory)).toEqual({ ...first, reads: ['team/_atlas.yaml'] });

    await write('b.md', '---\nid: c\n---\n# B\n\nNow claims the id of c.\n');
    memory.changed(['b.md']);
    expect(await read(memory)).toEqual({ reads: ['team/_atlas.yaml', 'b.md'], docs: [['a.md', {}], ['b.md', {}], ['team/x.md', { acl: ['staff'] }]], problems: ['c.md', 'team/y.md', 'team/y.md'] });

    await write('team/_atlas.yaml', 'labels:\n  acl: [admins]\n');
    expect((await read(memory)).reads).toEqual(['team/_atlas.yaml', 'team/x.md', 'team/y.md']);
    memory.changed(['team']);
    expect((await read(memory)).reads).toEqual(['team/_atlas.yaml', 'team/x.md', 'team/y.md']);
    memory.clear();
    expect((await read(memory)).reads).toEqual(first.reads);
  });
});
