import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, type Doc, type LoadedCorpus } from './index.ts';

// The real Graphile Worker docs (MIT), kept outside the repo at ../shared/corpora/graphile-worker.
// ATLAS_SHARED_DIR points elsewhere when the checkout is not beside ../shared (CI clones, forks).
const sharedDir = process.env.ATLAS_SHARED_DIR ?? fileURLToPath(new URL('../../../shared', import.meta.url));
const corpusRoot = join(sharedDir, 'corpora/graphile-worker/docs');
const present = existsSync(corpusRoot);
const absent = `the real corpus folder ${corpusRoot} is absent (it lives outside the repo, beside it in ../shared/corpora)`;

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
    expect(corpus.docs.reduce((sum, page) => sum + page.chunks.length, 0)).toBe(187);
  });

  it('finds the right headings and line ranges', ({ skip }) => {
    skip(!present, absent);
    const outline = (docId: string) => doc(docId).chunks.map((chunk) => [chunk.heading, chunk.startLine, chunk.endLine]);
    expect(outline('glossary')).toEqual([
      ['Glossary', 5, 5], ['Task', 7, 11], ['Task identifier', 13, 15], ['Task executor', 17, 37], ['Job', 39, 45],
      ['Payload', 47, 51], ['Worker', 53, 58], ['WorkerPool', 60, 64], ['Cron', 66, 68], ['Runner', 70, 75],
      ['Graceful shutdown', 77, 81], ['Forceful shutdown', 83, 87],
    ]);
    // `## \`run()\`` headings become plain text.
    expect(doc('library-run').chunks.map((chunk) => chunk.heading)).toEqual([
      'Library: running jobs', 'run()', 'runOnce()', 'runMigrations()', 'RunnerOptions', 'RunnerOptions', 'Runner',
    ]);
    // The "# ┌──── UTC minute" lines of the crontab code fence are not headings.
    expect(doc('cron').chunks.map((chunk) => chunk.heading)).toEqual([
      'Recurring tasks (crontab)', 'Recurring schedule', 'crontab format', 'crontab format', 'crontab format',
      'Distributed crontab', 'Examples', 'Limiting backfill', 'Specifying cron items in library mode',
      'Specifying cron items in library mode',
    ]);
    expect(doc('cron').chunks[4]!.headingPath).toEqual(['Recurring tasks (crontab)', 'crontab format', 'Crontab opts', 'Time phrase']);
  });

  it('drops a # title that repeats the front matter title', ({ skip }) => {
    skip(!present, absent);
    const first = doc('error-handling').chunks[0]!;
    expect(first).toMatchObject({ chunkId: 'error-handling#0', heading: 'Error handling', startLine: 8, endLine: 9 });
    expect(first.text).toBe(
      'You might be wondering &ldquo;what happens if something goes wrong?&rdquo; Here\nare a few common ways things can go wrong, and how Graphile Worker handles them.',
    );
  });

  it('keeps code fences whole and every chunk verbatim within its line range', ({ skip }) => {
    skip(!present, absent);
    let fenced = 0;
    for (const page of corpus.docs) {
      const lines = readFileSync(join(corpusRoot, page.sourcePath), 'utf8').split('\n');
      for (const chunk of page.chunks) {
        const fenceLines = chunk.text.split('\n').filter((line) => /^\s*(```|~~~)/.test(line)).length;
        if (fenceLines > 0) fenced++;
        expect(fenceLines % 2, `${chunk.chunkId} has an odd number of fence lines`).toBe(0);
        expect(lines.slice(chunk.startLine - 1, chunk.endLine).join('\n')).toContain(chunk.text);
        expect(chunk.text).toBe(chunk.text.trim());
      }
    }
    expect(fenced).toBeGreaterThan(50);
  });
});
