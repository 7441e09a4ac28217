import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../corpus/load.ts';
import type { Doc } from '../../corpus/types.ts';
import { createTestSchemas, testPostgres } from '../../testing/postgres-server.ts';
import { sharedFolder } from '../../testing/shared-folder.ts';
import { createSqliteIndex } from '../sqlite/sqlite.ts';
import type { IndexBackend, SearchFilter } from '../types.ts';
import { createPostgresIndex } from './postgres.ts';

const server = testPostgres(process.env);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const graphile = sharedFolder('datasets/graphile-worker-dev', process.env);

/** The questions of a dataset folder: its retrieval queries and its QA questions. */
function questionsOf(root: string): string[] {
  return ['retrieval_queries.jsonl', 'qa_gold.jsonl'].flatMap((file) =>
    readFileSync(join(root, 'eval', file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { query?: string; question?: string })
      .map((line) => line.query ?? line.question!),
  );
}

/**
 * The docs with filters to pass or fail: every third page applies to 2.x only, every fifth is
 * restricted to the `staff` group, every seventh has `audience: ops`.
 */
function withFilterFields(docs: readonly Doc[]): Doc[] {
  return docs.map((doc, n) => {
    const appliesTo = n % 3 === 1 ? '2.x' : doc.appliesTo;
    const labels: Doc['labels'] = { ...doc.labels, ...(n % 5 === 2 ? { acl: ['staff'] } : {}), ...(n % 7 === 3 ? { audience: 'ops' } : {}) };
    return { ...doc, appliesTo, labels, chunks: doc.chunks.map((chunk) => ({ ...chunk, appliesTo, labels: { ...chunk.labels, ...labels } })) };
  });
}

const FILTERS: Array<SearchFilter | undefined> = [
  undefined,
  { version: '3.x' },
  { principal: { groups: ['staff'] } },
  { version: '2.x', labels: { audience: 'dev' }, principal: { groups: ['staff'] } },
];

/** Each question's top 10 under each filter, as chunk ids and scores. */
async function tops(index: IndexBackend, questions: readonly string[]): Promise<Array<{ question: string; filter: number; hits: Array<[string, number]> }>> {
  const all = [];
  for (const question of questions) {
    for (const [filter, value] of FILTERS.entries()) {
      const hits = await index.search(question, { k: 10, ...(value === undefined ? {} : { filter: value }) });
      all.push({ question, filter, hits: hits.map((hit): [string, number] => [hit.chunkId, hit.score]) });
    }
  }
  return all;
}

/** `actual` equals `expected`: the same chunks in the same order, scores within 1e-9. */
function expectSameTops(actual: Awaited<ReturnType<typeof tops>>, expected: Awaited<ReturnType<typeof tops>>): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((run, n) => {
    const want = expected[n]!;
    expect({ question: run.question, filter: run.filter, ids: run.hits.map((hit) => hit[0]) }).toEqual({ question: want.question, filter: want.filter, ids: want.hits.map((hit) => hit[0]) });
    run.hits.forEach((hit, at) => expect(Math.abs(hit[1] - want.hits[at]![1])).toBeLessThanOrEqual(1e-9));
  });
}

describe.skipIf(server.url === undefined)(`PostgreSQL ranks as SQLite${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const schemas = createTestSchemas(server.url ?? 'postgres://unused', 'pgparity');
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-pg-parity-'));
  afterAll(async () => {
    await schemas.dropAll();
    rmSync(scratch, { recursive: true, force: true });
  });
  const cases = [
    { name: 'orbit', root: join(repoRoot, 'datasets/orbit'), present: true, absent: '' },
    { name: 'graphile-worker-dev', root: graphile.path, present: graphile.present, absent: graphile.absent },
  ];
  for (const { name, root, present, absent } of cases) {
    it.skipIf(!present)(`gives SQLite's top 10 (ids, order, scores to 1e-9) for every question of ${name}, unfiltered and under three filters, also after an incremental ingest${present ? '' : ` (skipped: ${absent})`}`, async () => {
      const docs = withFilterFields((await loadCorpus(join(root, 'docs'))).docs);
      const questions = questionsOf(root);
      const sqlite = createSqliteIndex({ path: join(scratch, `${name}.db`) });
      const postgres = createPostgresIndex({ url: schemas.fresh() });
      try {
        for (const index of [sqlite, postgres]) await index.ingest(docs);
        const expected = await tops(sqlite, questions);
        expect(expected.filter((run) => run.hits.length === 10).length).toBeGreaterThan(questions.length * 3);
        expectSameTops(await tops(postgres, questions), expected);
        // Incremental: one page changed, one removed, one added (the removed page again under a new id).
        const [first, second, ...rest] = docs;
        const changed = { ...first!, contentHash: `${first!.contentHash}-changed`, chunks: first!.chunks.slice(1) };
        const moved = { ...second!, docId: `${second!.docId}-moved`, contentHash: `${second!.contentHash}-moved`, chunks: second!.chunks.map((chunk) => ({ ...chunk, docId: `${second!.docId}-moved`, chunkId: `${chunk.chunkId}-moved` })) };
        const next = [changed, ...rest, moved];
        for (const index of [sqlite, postgres]) await index.ingest(next);
        expectSameTops(await tops(postgres, questions), await tops(sqlite, questions));
      } finally {
        await Promise.all([sqlite.close(), postgres.close()]);
      }
    }, 300_000);
  }
});
