import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedFolder } from '../testing/shared-folder.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CHUNK_CHARS, DEFAULT_MIN_CHUNK_CHARS, loadCorpus, type Doc, type LoadedCorpus } from './index.ts';
import { meaningfulLength } from './markdown/meaningful-length.ts';

// The real Graphile Worker docs (MIT), kept outside the repo at ../shared/corpora/graphile-worker.
// ATLAS_SHARED_DIR points elsewhere when the checkout is not beside ../shared (CI clones, forks).
const { path: corpusRoot, present, absent } = sharedFolder('corpora/graphile-worker/docs', process.env);

describe('loadCorpus on the real Graphile Worker docs', () => {
  let corpus: LoadedCorpus;
  const doc = (docId: string): Doc => {
    const found = corpus.docs.find((candidate) => candidate.docId === docId);
    if (!found) throw new Error(`no doc ${docId}`);
    return found;
  };
  beforeAll(async () => {
    if (present) corpus = await loadCorpus(corpusRoot);
  });

  it('loads every page without problems', ({ skip }) => {
    skip(!present, absent);
    expect(corpus.problems).toEqual([]);
    expect(corpus.docs.map((page) => page.docId)).toEqual([
      'admin-functions', 'cli-index', 'cli-run', 'config', 'connection-string', 'contributing', 'cron', 'docker',
      'error-handling', 'exponential-backoff', 'faq', 'forbidden-flags', 'glossary', 'index', 'installation',
      'job-key', 'jobs-view', 'library-add-job', 'library-add-jobs', 'library-index', 'library-logger',
      'library-queue', 'library-run', 'performance', 'pro-config', 'pro-index', 'pro-migration', 'pro-recovery',
      'project-status', 'requirements', 'scaling', 'schema', 'sql-add-job', 'support', 'tasks', 'techniques',
      'typescript', 'uninstall', 'worker-events',
    ]);
    expect(corpus.docs.reduce((sum, page) => sum + page.chunks.length, 0)).toBe(237);
  });

  it('finds the right headings and line ranges', ({ skip }) => {
    skip(!present, absent);
    const outline = (docId: string) => doc(docId).chunks.map((chunk) => [chunk.heading, chunk.startLine, chunk.endLine]);
    // The lead-in "Here are some of the terms ...:" (line 5) joins the first term it introduces.
    expect(outline('glossary')).toEqual([
      ['Task', 5, 11], ['Task identifier', 13, 15], ['Task executor', 17, 37], ['Job', 39, 45], ['Payload', 47, 51],
      ['Worker', 53, 58], ['WorkerPool', 60, 64], ['Cron', 66, 68], ['Runner', 70, 75], ['Graceful shutdown', 77, 81],
      ['Forceful shutdown', 83, 87],
    ]);
    // `## \`run()\`` headings become plain text.
    expect(doc('library-run').chunks.map((chunk) => chunk.heading)).toEqual([
      'Library: running jobs', 'run()', 'runOnce()', 'runMigrations()', 'RunnerOptions', 'RunnerOptions', 'Runner',
    ]);
    // The "# ┌──── UTC minute" lines of the crontab code fence are not headings; the long
    // "crontab format" section is split at its ### headings.
    expect(doc('cron').chunks.map((chunk) => chunk.headingPath.slice(1).join(' > '))).toEqual([
      '', 'Recurring schedule', 'crontab format', 'crontab format > Crontab opts', 'crontab format > Crontab opts',
      'crontab format > payload', 'Distributed crontab', 'Examples', 'Limiting backfill', 'Specifying cron items in library mode',
      'Specifying cron items in library mode > parsedCronItems', 'Specifying cron items in library mode > parsedCronItems',
    ]);
    expect(doc('cron').chunks[5]).toMatchObject({ heading: 'payload', startLine: 135, endLine: 146 });
    // Each option of the long `worker` options section is a chunk named after it.
    expect(doc('config').chunks.filter((chunk) => chunk.headingPath[1] === 'worker options').map((chunk) => chunk.heading).slice(0, 4)).toEqual([
      'worker options', 'worker.completeJobBatchDelay', 'worker.concurrentJobs', 'worker.connectionString',
    ]);
  });

  it('drops a # title that repeats the front matter title', ({ skip }) => {
    skip(!present, absent);
    const first = doc('error-handling').chunks[0]!;
    expect(first).toMatchObject({ chunkId: 'error-handling#0', heading: 'Error handling', startLine: 8, endLine: 9 });
    expect(first.text).toBe(
      'You might be wondering &ldquo;what happens if something goes wrong?&rdquo; Here\nare a few common ways things can go wrong, and how Graphile Worker handles them.',
    );
  });

  it('keeps code fences whole and every chunk verbatim within its line range, HTML and admonition lines aside', ({ skip }) => {
    skip(!present, absent);
    let fenced = 0;
    const notVerbatim: string[] = [];
    // An admonition's opening line reads as its title or kind (":::warning Important" -> "Important:",
    // ":::tip" -> "Tip:", a title that ends a sentence as it is), its closing line as nothing; whitespace aside.
    const asRead = (source: string) =>
      source
        .replace(/^:::\w+[ \t]+(\S.*?)[ \t]*$/gm, (_line, title: string) => (/[.:!?]$/.test(title) ? title : `${title}:`))
        .replace(/^:::(\w)(\w*)[ \t]*$/gm, (_line, first: string, rest: string) => `${first.toUpperCase()}${rest}:`)
        .replace(/^:::[ \t]*$/gm, '')
        .replace(/\s+/g, ' ');
    let admonitions = 0;
    for (const page of corpus.docs) {
      const lines = readFileSync(join(corpusRoot, page.sourcePath), 'utf8').split('\n');
      for (const chunk of page.chunks) {
        const fenceLines = chunk.text.split('\n').filter((line) => /^\s*(```|~~~)/.test(line)).length;
        if (fenceLines > 0) fenced++;
        expect(fenceLines % 2, `${chunk.chunkId} has an odd number of fence lines`).toBe(0);
        const source = lines.slice(chunk.startLine - 1, chunk.endLine).join('\n');
        if (/^:::/m.test(source)) admonitions++;
        if (!asRead(source).includes(asRead(chunk.text))) notVerbatim.push(chunk.chunkId);
        expect(chunk.text).toBe(chunk.text.trim());
        expect(chunk.text, chunk.chunkId).not.toMatch(/^:::/m);
      }
    }
    expect(admonitions).toBe(46);
    expect(fenced).toBeGreaterThan(50);
    // The two chunks that held HTML: an <!--BEGIN:OPTIONS--> comment, and <details><summary>.
    expect(notVerbatim).toEqual(['config#6', 'connection-string#6']);
    expect(doc('config').chunks[6]!.text).not.toContain('<!--');
    expect(doc('connection-string').chunks[6]!.text).toContain('\n\nClick to view amazon-rds-ca-cert.pem\n\nStore this into a file');
  });

  it('keeps every chunk within the bounds: none too small, none too long but a single code fence', ({ skip }) => {
    skip(!present, absent);
    const chunks = corpus.docs.flatMap((page) => page.chunks);
    expect(chunks.filter((chunk) => meaningfulLength(chunk.text) < DEFAULT_MIN_CHUNK_CHARS).map((chunk) => chunk.chunkId)).toEqual([
      // "A system of executing [recurring tasks](/docs/cron)." under "## Cron": its heading makes it count.
      'glossary#7',
    ]);
    expect(meaningfulLength(`${doc('glossary').chunks[7]!.heading}\n${doc('glossary').chunks[7]!.text}`)).toBeGreaterThanOrEqual(DEFAULT_MIN_CHUNK_CHARS);
    const oversized = chunks.filter((chunk) => chunk.text.length > DEFAULT_MAX_CHUNK_CHARS);
    expect(oversized.map((chunk) => [chunk.chunkId, chunk.text.length])).toEqual([
      ['cli-run#1', 1969], ['connection-string#7', 40963], ['library-add-job#2', 1905], ['worker-events#1', 2823],
    ]);
    for (const chunk of oversized) {
      // One fence, longer than the bound by itself, alone or after the lead-in paragraph (at most
      // 240 characters, ending with a colon) that introduces it.
      const match = /^(?:((?:[^\n]+\n)*[^\n]*[^:\s]:)\n\n)?(```[^\n]*\n[\s\S]*\n```)$/.exec(chunk.text);
      expect(match, chunk.chunkId).not.toBeNull();
      expect(match![1]?.length ?? 0, chunk.chunkId).toBeLessThanOrEqual(240);
      expect(match![2]!.split('\n').filter((line) => line.startsWith('```')).length, chunk.chunkId).toBe(2);
      expect(match![2]!.length, chunk.chunkId).toBeGreaterThan(DEFAULT_MAX_CHUNK_CHARS);
    }
  });
});
