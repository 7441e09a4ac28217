import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedFolder } from '../../testing/shared-folder.ts';
import { readPages } from '../load.ts';
import { defaultParseThreads, defaultStreamThreads, parsePages, parsePagesStream } from './parse-pages.ts';

const orbit = fileURLToPath(new URL('../../../datasets/orbit/docs', import.meta.url));
const fixtures = fileURLToPath(new URL('../__fixtures__', import.meta.url));
const graphile = sharedFolder('corpora/graphile-worker/docs', process.env);

describe('parsePages', () => {
  it('gives in 2 worker threads exactly what it gives in this thread, in the order of the pages', async () => {
    // Good and bad pages both: problems, and the notes of pages left out, must come back from the workers unchanged too.
    const sources = [...(await readPages(orbit)).sources, ...(await readPages(fixtures)).sources];
    const here = await parsePages(sources, { threads: 1 });
    const workerErrors: Error[] = [];
    const workers = await parsePages(sources, { threads: 3, batchPages: 5, thisThreadParses: false, onWorkerError: (error) => workerErrors.push(error) });
    expect(workerErrors).toEqual([]);
    expect(workers).toEqual(here);
    expect(workers.map((result) => (result.ok ? result.doc.sourcePath : (result.skipped?.file ?? result.problems[0]!.file)))).toEqual(sources.map((source) => source.path));
    expect(here.filter((result) => !result.ok).length).toBeGreaterThan(0);
    expect(here.filter((result) => !result.ok && result.skipped !== undefined).length).toBeGreaterThan(0);
  });

  it('gives the same chunks of the real Graphile Worker docs in 2 workers, in this thread, and in both', async ({ skip }) => {
    skip(!graphile.present, graphile.absent);
    const { sources } = await readPages(graphile.path);
    const workerErrors: Error[] = [];
    const options = { chunking: { maxChunkChars: 900 }, batchPages: 4, onWorkerError: (error: Error) => workerErrors.push(error) };
    const workers = await parsePages(sources, { ...options, threads: 3, thisThreadParses: false });
    expect(workerErrors).toEqual([]);
    expect(workers).toEqual(await parsePages(sources, { ...options, threads: 1 }));
    // This thread and the workers together, as by default: the same again.
    expect(await parsePages(sources, { ...options, threads: 2 })).toEqual(workers);
    expect(workers.every((result) => result.ok)).toBe(true);
  });

  it('checks its options before starting any thread', async () => {
    await expect(parsePages([], { threads: 2, chunking: { maxChunkChars: 0 } })).rejects.toThrow('maxChunkChars');
    await expect(parsePages([], { threads: 0.5 })).rejects.toThrow(
      'Atlas: threads must be a whole number of at least 1, got 0.5. Pass e.g. { threads: 4 }, or leave it out for one per core.',
    );
  });
});

describe('parsePagesStream', () => {
  it('yields the results in page order to a slow caller, batch by batch, as parsePages gives them', async () => {
    const { sources } = await readPages(orbit);
    const expected = await parsePages(sources, { threads: 1 });
    const sizes: number[] = [];
    const results = [];
    for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 4, thisThreadParses: false })) {
      sizes.push(batch.results.length);
      results.push(...batch.results);
      // A caller busy with each batch (an ingest writing it): the worker waits within its window.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(results).toEqual(expected);
    expect(sizes).toEqual([...Array.from({ length: Math.floor(sources.length / 4) }, () => 4), ...(sources.length % 4 ? [sources.length % 4] : [])]);
  });

  it('cuts the batches handed to workers at batchBytes (a page at least), so large pages go in smaller batches', async () => {
    const { sources } = await readPages(orbit);
    const expected = await parsePages(sources, { threads: 1 });
    // Pages of 3.5-7 KB: a batch of at most 12 KB holds one or two of them; of one byte, one page each.
    const limit = 12_000;
    const sizes: number[] = [];
    const results = [];
    for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 8, batchBytes: limit, thisThreadParses: false })) {
      sizes.push(batch.results.length);
      results.push(...batch.results);
    }
    expect(results).toEqual(expected);
    let at = 0;
    for (const size of sizes) {
      const bytes = sources.slice(at, at + size).reduce((total, source) => total + source.bytes.length, 0);
      expect(size === 1 || bytes <= limit).toBe(true);
      // The next page would not have fitted.
      if (at + size < sources.length) expect(bytes + sources[at + size]!.bytes.length).toBeGreaterThan(limit);
      at += size;
    }
    expect([Math.min(...sizes), Math.max(...sizes)]).toEqual([1, 2]);
    const single: number[] = [];
    for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 8, batchBytes: 1, thisThreadParses: false })) single.push(batch.results.length);
    expect(single).toEqual(sources.map(() => 1));
  });
  it('parses here what a worker that cannot start was given, and says why', async () => {
    const { sources } = await readPages(orbit);
    const errors: Error[] = [];
    const batches = [];
    const worker = { url: new URL('./no-such-worker.js', import.meta.url) };
    for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 8, thisThreadParses: false, worker, onWorkerError: (error) => errors.push(error) })) batches.push(batch);
    expect(batches.flatMap((batch) => batch.results)).toEqual(await parsePages(sources, { threads: 1 }));
    expect(batches.every((batch) => batch.extras === undefined)).toBe(true);
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(['MODULE_NOT_FOUND']);
  });

  it('lets go of each page once its batch is yielded when asked, in workers and in this thread', async () => {
    const { sources: read } = await readPages(orbit);
    const expected = await parsePages(read, { threads: 1 });
    for (const threads of [1, 2]) {
      const sources = read.slice();
      const held: number[] = [];
      const results = [];
      for await (const batch of parsePagesStream(sources, { threads, batchPages: 4, thisThreadParses: threads === 1, releaseParsed: true })) {
        results.push(...batch.results);
        // While the caller has a batch, its pages are still there; those before it are gone.
        held.push(sources.filter((source) => source.bytes.length > 0).length);
      }
      expect(results).toEqual(expected);
      expect(held).toEqual(held.map((_, n) => read.length - 4 * n));
      expect(sources.map((source) => [source.path, source.bytes.length])).toEqual(read.map((source) => [source.path, 0]));
    }
    // Without the option the caller's sources are left as they were.
    const kept = read.slice();
    for await (const batch of parsePagesStream(kept, { threads: 1, batchPages: 4 })) expect(batch.results.length).toBeGreaterThan(0);
    expect(kept).toEqual(read);
  });

  it('stops when the caller stops early', async () => {
    const { sources } = await readPages(orbit);
    let taken = 0;
    for await (const batch of parsePagesStream(sources, { threads: 2, batchPages: 4, thisThreadParses: false })) {
      taken += batch.results.length;
      if (taken >= 8) break;
    }
    expect(taken).toBe(8);
  });
});

describe('defaultStreamThreads', () => {
  it('uses a thread per core, at most 8, for 200 pages or more on 2 cores or more, and this thread otherwise', () => {
    expect(defaultStreamThreads(200, 2)).toBe(2);
    expect(defaultStreamThreads(10_000, 16)).toBe(8);
    expect(defaultStreamThreads(199, 4)).toBe(1);
    expect(defaultStreamThreads(10_000, 1)).toBe(1);
  });
});

describe('defaultParseThreads', () => {
  it('uses a thread per core, at most 8, for 200 pages or more on 3 cores or more, and this thread otherwise', () => {
    expect(defaultParseThreads(200, 3)).toBe(3);
    expect(defaultParseThreads(10_000, 2)).toBe(1);
    expect(defaultParseThreads(5000, 16)).toBe(8);
    expect(defaultParseThreads(199, 4)).toBe(1);
    expect(defaultParseThreads(10_000, 1)).toBe(1);
  });
});
