import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTinyPdf } from '../testing/tiny-pdf.ts';
import { applyFolderMeta } from './folder-rules.ts';
import { loadCorpus, readPages } from './load.ts';
import { parsePages, parsePagesStream } from './workers/parse-pages.ts';

// Issue 40: folder rules (`_atlas.yaml`) give labels, acl and applies_to to every page under their folder.

let docs: string;
const write = async (path: string, content: string | Buffer) => {
  await mkdir(dirname(join(docs, path)), { recursive: true });
  await writeFile(join(docs, path), content);
};
const PDF = createTinyPdf([[{ text: 'Handbook', size: 18, y: 540 }, { text: 'Allergens are labelled on every shelf.', size: 10, y: 510 }]], { title: 'Handbook' });

beforeEach(async () => {
  docs = await mkdtemp(join(tmpdir(), 'atlas-rules-'));
  await write('public.md', '# Public\n\nAnyone reads this.\n');
  await write('internal/_atlas.yaml', 'applies_to: "3.x"\nlabels:\n  team: ops\n  acl: [staff]\noverrides:\n  - match: "*.pdf"\n    labels: { kind: handbook }\n');
  await write('internal/guide.md', '# Guide\n\nStaff read this.\n');
  await write('internal/handbook.pdf', PDF);
  await write('internal/site.html', '<main><h1>Site</h1><p>An HTML page.</p></main>');
  await write('internal/secret/_atlas.yaml', 'labels:\n  acl: [admins]\n');
  await write('internal/secret/keys.md', '# Keys\n\nAdmins read this.\n');
  await write('internal/secret/own.md', '---\napplies_to: "2.x"\nlabels:\n  acl: [root]\n---\n# Own\n\nIts own front matter.\n');
  await write('internal/secret/notes.txt', 'Notes\n\nPlain text under the rule.\n');
  await write('internal/secret/notes.txt.atlas.yaml', 'labels:\n  team: security\n');
});
afterEach(async () => {
  await rm(docs, { recursive: true, force: true });
});

const meta = async () => (await loadCorpus(docs)).docs.map((doc) => [doc.sourcePath, doc.appliesTo, doc.labels, doc.chunks[0]!.labels]);

describe('folder rules', () => {
  it('inherit down the folders, the nearer folder and then the page winning label by label, an acl replaced whole', async () => {
    expect(await meta()).toEqual([
      ['internal/guide.md', '3.x', { team: 'ops', acl: ['staff'] }, { team: 'ops', acl: ['staff'] }],
      ['internal/handbook.pdf', '3.x', { team: 'ops', acl: ['staff'], kind: 'handbook' }, { team: 'ops', acl: ['staff'], kind: 'handbook' }],
      ['internal/secret/keys.md', '3.x', { team: 'ops', acl: ['admins'] }, { team: 'ops', acl: ['admins'] }],
      ['internal/secret/notes.txt', '3.x', { team: 'security', acl: ['admins'] }, { team: 'security', acl: ['admins'] }],
      ['internal/secret/own.md', '2.x', { team: 'ops', acl: ['root'] }, { team: 'ops', acl: ['root'] }],
      ['internal/site.html', '3.x', { team: 'ops', acl: ['staff'] }, { team: 'ops', acl: ['staff'] }],
      ['public.md', 'all', {}, {}],
    ]);
    // Parsed in a worker thread (this one parsing none), the pages get the same fields.
    const { sources } = await readPages(docs);
    const threaded = [];
    for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 2, thisThreadParses: false })) threaded.push(...batch.results);
    expect(threaded).toEqual(await parsePages(sources, { threads: 1 }));
  });

  it('applies a root rule, its overrides by glob in order, and a nearer rule after them', async () => {
    await write('_atlas.yaml', 'labels:\n  product: bakery\noverrides:\n  - match: "internal/**"\n    labels: { acl: [everyone] }\n  - match: "**/keys.md"\n    applies_to: "1.x"\n');
    expect((await meta()).map(([path, appliesTo, labels]) => [path, appliesTo, labels])).toEqual([
      ['internal/guide.md', '3.x', { product: 'bakery', acl: ['staff'], team: 'ops' }],
      ['internal/handbook.pdf', '3.x', { product: 'bakery', acl: ['staff'], team: 'ops', kind: 'handbook' }],
      ['internal/secret/keys.md', '3.x', { product: 'bakery', acl: ['admins'], team: 'ops' }],
      ['internal/secret/notes.txt', '3.x', { product: 'bakery', acl: ['admins'], team: 'security' }],
      ['internal/secret/own.md', '2.x', { product: 'bakery', acl: ['root'], team: 'ops' }],
      ['internal/site.html', '3.x', { product: 'bakery', acl: ['staff'], team: 'ops' }],
      ['public.md', 'all', { product: 'bakery' }],
    ]);
  });

  it('changes the content hash of exactly the pages whose fields a rule change changes', async () => {
    const hashes = async () => new Map((await loadCorpus(docs)).docs.map((doc) => [doc.sourcePath, doc.contentHash]));
    const before = await hashes();
    await write('internal/secret/_atlas.yaml', '# who reads the keys\nlabels:\n  acl: [admins]\n');
    expect(await hashes()).toEqual(before);
    await write('internal/secret/_atlas.yaml', 'labels:\n  acl: [admins, auditors]\n');
    const after = await hashes();
    expect([...after].filter(([path, hash]) => before.get(path) !== hash).map(([path]) => path)).toEqual(['internal/secret/keys.md', 'internal/secret/notes.txt']);
  });

  it('refuses an invalid rule naming its file and line, and leaves its pages out rather than indexing them without it', async () => {
    await write('internal/secret/_atlas.yaml', 'labels:\n  ACL: [admins]\n');
    const { docs: loaded, problems } = await loadCorpus(docs);
    expect(problems).toEqual([
      {
        file: 'internal/secret/_atlas.yaml',
        line: 2,
        field: 'labels.ACL',
        message:
          'labels.ACL is not read as access groups (only labels.acl is), so it restricts nothing; write acl: [admins]. Rename it to acl, or rename the label if it is not about access. (Until it is fixed, the 3 pages under internal/secret/ are not indexed.)',
      },
    ]);
    expect(loaded.map((doc) => doc.sourcePath)).toEqual(['internal/guide.md', 'internal/handbook.pdf', 'internal/site.html', 'public.md']);
  });

  it('refuses a rule file over 1 MB (its size from stat), leaving its pages out', async () => {
    await write('internal/secret/_atlas.yaml', `labels:\n  acl: [admins]\n${'#'.repeat(1024 * 1024)}\n`);
    expect((await loadCorpus(docs)).problems).toEqual([
      {
        file: 'internal/secret/_atlas.yaml',
        field: 'size',
        message: 'the file is 1048601 bytes, more than the 1048576 a folder rule may have: a folder rule holds a few labels. Shorten it, or rename it if it is not a folder rule. (Until it is fixed, the 3 pages under internal/secret/ are not indexed.)',
      },
    ]);
  });

  it('names a rule file misnamed so that it would apply to nothing', async () => {
    await write('guides/.atlas.yaml', 'labels:\n  acl: [staff]\n');
    await write('guides/_atlas.yml', 'labels:\n  acl: [staff]\n');
    await write('guides/a.md', '# A\n\nText.\n');
    const { problems } = await loadCorpus(docs);
    expect(problems).toEqual([
      { file: 'guides/.atlas.yaml', field: 'folder rule', message: 'a folder rule is read only as _atlas.yaml, got ".atlas.yaml", so its fields apply to no page. Rename it to _atlas.yaml.' },
      { file: 'guides/_atlas.yml', field: 'folder rule', message: 'a folder rule is read only as _atlas.yaml, got "_atlas.yml", so its fields apply to no page. Rename it to _atlas.yaml.' },
    ]);
  });
});

describe('applyFolderMeta', () => {
  it('replaces applies_to and each label whole, keeping the others', () => {
    expect(applyFolderMeta({ applies_to: '3.x', labels: { acl: ['staff', 'ops'], team: 'a' } }, { labels: { acl: ['admins'] } })).toEqual({ applies_to: '3.x', labels: { acl: ['admins'], team: 'a' } });
    expect(applyFolderMeta(undefined, { applies_to: '2.x' })).toEqual({ applies_to: '2.x' });
  });
});
