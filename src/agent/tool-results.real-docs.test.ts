// What search_docs and read_section show on real docs (issue 37, part 3): snippets of tables,
// the heading of the part a hit matched, split tables, short sections with their neighbours, the
// weak-match note, the skipped passages named, and where a query matches in a short section.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chunk } from '../corpus/types.ts';
import { loadCorpus } from '../corpus/index.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';
import { createInjectionIndex } from '../testing/injection-corpus.ts';
import { sharedFolder } from '../testing/shared-folder.ts';
import { SearchSession } from './session/search-session.ts';

type Result = Record<string, unknown> & { chunk_id: string };

async function indexOf(root: string): Promise<{ index: IndexBackend; chunks: Chunk[] }> {
  const { docs } = await loadCorpus(root);
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest(docs);
  return { index, chunks: docs.flatMap((doc) => doc.chunks) };
}

async function search(session: SearchSession, query: string): Promise<{ results: Result[]; note?: string }> {
  const outcome = await session.searchDocs({ query });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.value as { results: Result[]; note?: string };
}

describe('the tools on the Orbit docs (datasets/orbit)', () => {
  let index: IndexBackend;
  let chunks: Chunk[];
  beforeAll(async () => {
    ({ index, chunks } = await indexOf('datasets/orbit/docs'));
  });
  afterAll(async () => {
    await index.close();
  });

  it('shows a table hit as its header row and the matching row, never the delimiter row or an unrelated first row', async () => {
    // Snippets only (resultChars 0): by default these short passages come whole.
    const { results } = await search(new SearchSession({ index, resultChars: 0 }), 'ORB-1404 StepTimeout');
    const byId = new Map(results.map((result) => [result.chunk_id, result.snippet]));
    expect(byId.get('api-flow#8')).toBe('| Code | Exception | When |\n| `ORB-1404` | `StepTimeout` | a step exceeded `timeout_seconds` |');
    expect(byId.get('troubleshooting-stuck-jobs#5')).toBe(
      '| Error | Meaning | Where to go next |\n| `ORB-1404 StepTimeout` | The step exceeded its `timeout_seconds` | [Timeouts](timeouts.md) |',
    );
    // The table's first rows (ORB-1202 PayloadTooLarge) are not the match, and no snippet shows a delimiter row.
    expect(results.filter((result) => /\|-|-\|/.test(String(result.snippet)))).toEqual([]);
  });

  it('names a hit after the heading of the part it matched, not the neighbour a small section was merged into', async () => {
    const chunk = chunks.find((each) => each.chunkId === 'error-codes#1')!;
    expect([chunk.heading, chunk.text.includes('### ORB-1002 BrokerChannelClosed')]).toEqual(['10xx Broker', true]);
    const { results } = await search(new SearchSession({ index, resultChars: 0 }), 'ORB-1002 BrokerChannelClosed');
    expect(results.find((result) => result.chunk_id === 'error-codes#1')).toMatchObject({
      heading: 'ORB-1002 BrokerChannelClosed',
      heading_path: 'Error codes > 10xx Broker > ORB-1002 BrokerChannelClosed',
      snippet: '### ORB-1002 BrokerChannelClosed\nRabbitMQ closed the channel the worker was consuming on. Jobs delivered on that channel go back to the queue and are delivered again.',
    });
    // Shown whole, the chunk keeps the name of the part that matched; its text holds both headings.
    const whole = (await search(new SearchSession({ index }), 'ORB-1002 BrokerChannelClosed')).results.find((result) => result.chunk_id === 'error-codes#1');
    expect(whole).toMatchObject({ heading: 'ORB-1002 BrokerChannelClosed', heading_path: 'Error codes > 10xx Broker > ORB-1002 BrokerChannelClosed', text: chunk.text, complete: true });
  });

  it('repeats a long table\'s header row in each chunk it is split over, and a hit names the sibling chunks', async () => {
    const header = '| 2.x variable | 2.x orbit.yaml key | 3.x orbit.toml key | Note |\n|---|---|---|---|\n';
    const parts = chunks.filter((chunk) => chunk.chunkId === 'migration-2-to-3#3' || chunk.chunkId === 'migration-2-to-3#4');
    expect(parts.map((chunk) => [chunk.chunkId, chunk.text.includes(header), chunk.text.startsWith(header)])).toEqual([
      ['migration-2-to-3#3', true, false],
      ['migration-2-to-3#4', true, true],
    ]);
    const session = new SearchSession({ index, resultChars: 0 });
    const { results } = await search(session, 'ORBIT_DEDUPE_WINDOW dedupe_window_hours');
    expect(results[0]).toMatchObject({
      chunk_id: 'migration-2-to-3#4',
      snippet: '| 2.x variable | 2.x orbit.yaml key | 3.x orbit.toml key | Note |\n| `ORBIT_DEDUPE_WINDOW` | `dedupe_window` | `[jobs] dedupe_window_hours` | seconds to hours: 86400 becomes 24 |',
      table_parts: ['migration-2-to-3#3', 'migration-2-to-3#4'],
    });
    // A table that fits one chunk names no parts; nor do sections with the same header in another section.
    expect(results.filter((result) => result.table_parts !== undefined).map((result) => result.chunk_id)).toEqual(['migration-2-to-3#4']);
    const read = await session.readSection({ chunk_id: 'migration-2-to-3#3' });
    expect(read.ok && read.value.table_parts).toEqual(['migration-2-to-3#3', 'migration-2-to-3#4']);
  });

  it('flags a result that scores high on one word of the question but covers little of it', async () => {
    const session = new SearchSession({ index });
    const { note } = await search(session, 'Does the admin API offer a GraphQL endpoint?');
    expect(note).toBe("weak matches: these passages cover 40% of the query's words: rewrite the query or conclude");
    const step = session.steps[0]!;
    // Not weak by its score (the threshold is 9.2): by what it covers ("graphql" and "offer" are nowhere).
    expect([Math.round(step.bestScore! * 10) / 10, step.coverage, step.note]).toEqual([10.1, 0.396, 'weak-matches']);
  });

  it('weighs a query word by the chunks holding it, as the index tokenizes it (the rarest part of an identifier)', async () => {
    expect(await index.documentFrequencies?.(['lease', 'leases', 'graphql', 'max_payload_kb', '...'])).toEqual({ chunks: 359, frequencies: [114, 114, 0, 9, 0] });
    // Over restricted pages the counts would tell of their words: an index holding some gives none.
    const restricted = await createInjectionIndex();
    expect(await restricted.documentFrequencies?.(['lease'])).toBeUndefined();
    await restricted.close();
  });

  it('names the already-seen passages it skips, so one can be read again', async () => {
    const session = new SearchSession({ index });
    await search(session, 'How do I run a worker for the emails queue?');
    const { note } = await search(session, 'run worker emails queue orbit');
    expect(note).toBe(
      '5 already-seen passages skipped: priorities-and-queues#2 "Naming conventions", quick-start-2x#4 "Run a worker", quick-start-2x#5 "Enqueue a job", quick-start-2x#2 "Define a job", dead-letters#1 "Naming" (read_section re-reads one); weak matches: rewrite the query or conclude',
    );
  });

  it('reads a short section with its neighbours\' first lines, apart, and says where the query matches in it', async () => {
    const session = new SearchSession({ index });
    const outcome = await session.readSection({ chunk_id: 'quick-start-2x#4', query: 'worker for the emails queue' });
    expect(outcome.ok && outcome.value).toMatchObject({
      text: 'In a second terminal, with the same variables exported, start a worker on the `emails` queue:\n\n```shell\norbit worker -q emails\n```',
      complete: true,
      query_matches: [
        { offset: 0, terms: ['worker', 'emails', 'queue'] },
        { offset: 104, terms: ['worker', 'emails'] },
      ],
      previous_section: { chunk_id: 'quick-start-2x#3', heading: 'Configure with environment variables', complete: true },
      next_section: { chunk_id: 'quick-start-2x#5', heading: 'Enqueue a job', complete: true },
    });
    // The neighbours' text is evidence like any page shown: a quote from it verifies.
    const next = outcome.ok ? (outcome.value.next_section as { text: string }) : { text: '' };
    expect(session.evidence.get('quick-start-2x#5')?.shown).toEqual([next.text]);
    expect(session.reads.map((read) => read.newChunkIds)).toEqual([['quick-start-2x#4', 'quick-start-2x#3', 'quick-start-2x#5']]);
  });
});

// The real Graphile Worker docs (MIT), kept outside the repo at ../shared/datasets/graphile-worker-dev.
const graphile = sharedFolder('datasets/graphile-worker-dev/docs', process.env);

describe('the tools on the Graphile Worker docs', () => {
  let index: IndexBackend | undefined;
  beforeAll(async () => {
    if (graphile.present) ({ index } = await indexOf(graphile.path));
  });
  afterAll(async () => {
    await index?.close();
  });

  it('names a hit on helpers.addJob() after it, not after helpers.abortSignal, whose chunk it was merged into', async ({ skip }) => {
    skip(!graphile.present, graphile.absent);
    const { results } = await search(new SearchSession({ index: index! }), 'helpers.addJob');
    expect(results[0]).toMatchObject({
      chunk_id: 'tasks#11',
      heading: 'helpers.addJob()',
      heading_path: 'Task executors > helpers > helpers.addJob()',
      complete: true,
      links: { '/library/add-job.md': 'library-add-job#0', '/library/add-job.md#add-jobs': 'library-add-job#0' },
    });
    // The chunk is short, so it is shown whole: the abortSignal text it was merged into, then the hit.
    expect(results[0]!.text).toContain('### `helpers.addJob()`\n\nSee [`addJob`](/library/add-job.md).');
    expect((await index!.getChunk('tasks#11'))?.heading).toBe('helpers.abortSignal');
  });

  it('reads an error line with the section before it, so one read is enough', async ({ skip }) => {
    skip(!graphile.present, graphile.absent);
    const outcome = await new SearchSession({ index: index! }).readSection({ chunk_id: 'error-handling#5', query: 'GWBKM invalid job_key_mode' });
    expect(outcome.ok && outcome.value).toMatchObject({
      text: "- `GWBKM` - Invalid `job_key_mode` value, expected `'replace'`,\n  `'preserve_run_at'` or `'unsafe_dedupe'`.",
      query_matches: [{ offset: 0, terms: ['gwbkm', 'invalid', 'job_key_mode'] }],
      previous_section: {
        chunk_id: 'error-handling#4',
        heading: 'Database migration',
        heading_path: 'Error handling > Database migration',
        text: 'If a new version of Graphile Worker is ran against the database, and this\nversion includes new migrations, then a NOTIFY event will be issued. Graphile\nWorker 0.16+ will LISTEN for this event, and will shut down if it is received.',
        complete: true,
      },
    });
    expect(outcome.ok && outcome.value).not.toHaveProperty('next_section');
  });
});
