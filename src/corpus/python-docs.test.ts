import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import { loadCorpus } from './load.ts';

// Issue 40: a real generated site. Debian's python3.11-doc is the Python documentation as Sphinx
// HTML (530 pages); .ci/run installs it. Without it these tests are skipped, saying why.
const PYTHON_DOCS = '/usr/share/doc/python3.11/html';
const present = existsSync(PYTHON_DOCS);
const reason = present ? '' : ` (skipped: ${PYTHON_DOCS} is missing; apt-get install python3.11-doc)`;

// What Sphinx's chrome says: the related bar, the sidebar, the footer, the search box.
const NAVIGATION = /^(?:index\s*\|?\s*modules|modules\s*\||next\s*\||previous\s*\||navigation\s*$|python\s*»|table of contents\s*$|previous topic|next topic|this page\s*$|report a bug|show source|quick search|theme\s*auto|©|copyright\b)/i;
const CHROME_ANYWHERE = /show source|quick search|previous topic|next topic/i;

describe.skipIf(!present)(`the Python documentation as Sphinx HTML${reason}`, () => {
  it('reads every page, and no chunk starts with (or holds) navigation text', async () => {
    const { docs, problems, notes } = await loadCorpus(PYTHON_DOCS);
    expect([docs.length, problems, notes]).toEqual([530, [], []]);
    const chunks = docs.flatMap((doc) => doc.chunks);
    // Every 7th chunk, and the first of every page (where a page's header would be).
    const sample = [...chunks.filter((_, at) => at % 7 === 0), ...docs.map((doc) => doc.chunks[0]!)];
    expect(sample.length).toBeGreaterThan(2500);
    expect(sample.filter((chunk) => NAVIGATION.test(chunk.text.trimStart())).map((chunk) => [chunk.chunkId, chunk.text.slice(0, 60)])).toEqual([]);
    expect(chunks.filter((chunk) => CHROME_ANYWHERE.test(chunk.text)).map((chunk) => [chunk.chunkId, CHROME_ANYWHERE.exec(chunk.text)![0]])).toEqual([]);
    expect(docs.find((doc) => doc.sourcePath === 'library/itertools.html')?.title).toBe('itertools — Functions creating iterators for efficient looping');
  }, 300_000);

  it('ranks the itertools page first for "itertools.groupby"', async () => {
    const index = createSqliteIndex({ path: ':memory:' });
    try {
      await index.ingest((await loadCorpus(PYTHON_DOCS)).docs);
      const hits = await index.search('itertools.groupby', { k: 3 });
      expect(hits.map((hit) => [hit.docId, hit.heading])).toEqual([
        ['library-itertools', 'itertools.groupby(iterable, key=None)'],
        expect.any(Array),
        expect.any(Array),
      ]);
    } finally {
      await index.close();
    }
  }, 300_000);
});
