import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFts5Tokenizer } from '../src/index/analysis/fts5-tokens.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createTestDoc } from '../src/index/test-docs.ts';
import { cachedLuceneIndex, luceneClasspath, luceneQueryLine, runLucene } from './lucene.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-lucene-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('luceneClasspath', () => {
  const debian = () => ['lucene-core-8.7.0.jar', 'lucene-analyzers-common-8.7.0.jar', 'lucene-core-8.x.jar', 'lucene-demo-8.7.0.jar'];

  it("finds Lucene 8's jars where Debian's liblucene8-java installs them", () => {
    expect(luceneClasspath({}, debian, () => true)).toEqual({
      classpath: '/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar',
    });
  });

  it('takes ATLAS_LUCENE_JARS as the class path when set', () => {
    expect(luceneClasspath({ ATLAS_LUCENE_JARS: '/opt/lucene/core.jar:/opt/lucene/common.jar' }, () => [], () => true)).toEqual({
      classpath: '/opt/lucene/core.jar:/opt/lucene/common.jar',
    });
  });

  it('says what is missing and how to install it', () => {
    expect(luceneClasspath({}, () => ['lucene-core-8.7.0.jar'], () => true)).toEqual({
      missing: 'no lucene-analyzers-common 8.x jar in /usr/share/java (Debian: apt-get install liblucene8-java, or set ATLAS_LUCENE_JARS to a class path holding them)',
    });
    expect(luceneClasspath({}, debian, () => false)).toEqual({
      missing: 'no `java` on PATH (Debian: apt-get install default-jdk-headless liblucene8-java)',
    });
  });
});

describe('luceneQueryLine', () => {
  const tokens = createFts5Tokenizer({ porter: true });

  it("writes the version and the tokens Atlas ranks for the question (its terms, stemmed)", () => {
    expect(luceneQueryLine({ query: 'Where was the Tao Society of Artists founded?', version: '3.x' }, tokens)).toBe('3.x\ttao societi artist found');
    expect(luceneQueryLine({ query: 'Why does ORB-1202 fail?', version: null }, tokens)).toBe('-\torb 1202 orb1202 fail');
  });
});

const classpath = luceneClasspath(process.env);

describe.skipIf('missing' in classpath)(`Lucene over an Atlas index (${'missing' in classpath ? `skipped: ${classpath.missing}` : 'java and the jars found'})`, () => {
  it('indexes the chunks of an Atlas database and returns the BM25 top k, filtered by version', async () => {
    const atlasPath = join(scratch, 'atlas.db');
    const index = createSqliteIndex({ path: atlasPath });
    await index.ingest([
      createTestDoc({ docId: 'birds', appliesTo: '2.x', sections: ['Pelicans eat fish.', 'Pelicans and pelicans nest on pelican islands.'] }),
      createTestDoc({ docId: 'more', appliesTo: 'all', sections: ['A pelican flies.', 'Weather is mild.'] }),
    ]);
    await index.close();
    const folder = await cachedLuceneIndex({ atlasPath, cache: scratch, size: 4, classpath: (classpath as { classpath: string }).classpath, log: () => {} });
    expect(folder).toBe(join(scratch, 'lucene-4-42-v6'));
    const result = runLucene({
      folder,
      queries: [
        { query: 'pelicans', version: null },
        { query: 'pelicans', version: '3.x' },
        { query: 'weather', version: null },
      ],
      warmup: [{ query: 'fish', version: null }],
      k: 2,
      classpath: (classpath as { classpath: string }).classpath,
      cache: scratch,
      warmupMs: 0,
    });
    expect(result.engine).toBe('lucene');
    expect(result.ids).toEqual([['birds#1', 'birds#0'], ['more#0'], ['more#1']]);
    expect(result.durations).toHaveLength(3);
    expect(result.cpuDurations).toHaveLength(3);
    expect(result.peakRssMB).toBeGreaterThan(0);
  });
});
