import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../index/types.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { askInConversation } from './ask.ts';
import { openConversationStore } from './sqlite-store.ts';
import type { ConversationStore } from './store.ts';

// A conversation whose first turn cited a passage that the docs then changed (as `atlas ingest
// --watch` re-indexes a saved page): the follow-up must not serve that quote as verified.
const SIXTY = 'A worker holds a job for a lease of sixty seconds.';
const leases = (text: string) => makeDoc('leases', 'all', [['Leases', 'How workers hold jobs.'], ['Duration', text]]);
const principal = { groups: [] };
let dir: string;
let store: ConversationStore;
let index: IndexBackend;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-stale-'));
  store = openConversationStore({ path: path.join(dir, 'index.db.state.db'), randomId: () => 'conversation-1', now: () => 0 });
  index = createMemoryIndex([leases(SIXTY), makeDoc('retries', 'all', [['Retries', 'Failed jobs are retried with exponential backoff.']])]);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const firstTurn = () =>
  createScriptedModel([
    { toolCalls: [{ toolName: 'search_docs', input: { query: 'lease seconds' } }] },
    { answer: { text: 'A lease lasts sixty seconds. [1]', citations: [{ doc_id: 'leases', quote: SIXTY }] } },
  ]);
/** A follow-up that searches something else, then cites the quote its conversation was shown in the first turn. */
const followUp = () =>
  createScriptedModel([
    { toolCalls: [{ toolName: 'search_docs', input: { query: 'retries backoff' } }] },
    { answer: { text: 'Sixty seconds, as said. [1]', citations: [{ doc_id: 'leases', quote: SIXTY }] } },
  ]);

describe('a conversation over a changing index', () => {
  it('a follow-up citing text changed since an earlier turn read it marks the citation stale, backing no claim', async () => {
    const { id } = await store.create({ principal });
    const first = await askInConversation(store, id, 'How long is a lease?', principal, { model: firstTurn(), index, route: 'agentic' });
    expect(first!.run.answer.citations.map((citation) => [citation.chunkId, citation.stale])).toEqual([['leases#1', undefined]]);
    expect(first!.run.answer.claims).toEqual([{ text: 'A lease lasts sixty seconds. [1]', supported: true, score: 0.75, citations: [0] }]);

    await index.ingest([leases('A worker holds a job for a lease of ninety seconds.'), makeDoc('retries', 'all', [['Retries', 'Failed jobs are retried with exponential backoff.']])]);
    const second = await askInConversation(store, id, 'Remind me?', principal, { model: followUp(), index, route: 'agentic' });
    expect(second!.run.answer.abstained).toBe(false);
    expect(second!.run.answer.citations).toEqual([
      {
        docId: 'leases',
        quote: SIXTY,
        chunkId: 'leases#1',
        heading: 'Duration',
        headingPath: ['Leases', 'Duration'],
        sourcePath: 'leases.md',
        startLine: 3,
        endLine: 4,
        stale: { reason: 'the quoted text is no longer in "leases" (leases.md): the page changed since the passage was read' },
      },
    ]);
    expect(second!.run.answer.claims).toEqual([{ text: 'Sixty seconds, as said. [1]', supported: false, score: 0, citations: [] }]);
  });

  it('the same follow-up over an unchanged index serves the quote as verified', async () => {
    const { id } = await store.create({ principal });
    await askInConversation(store, id, 'How long is a lease?', principal, { model: firstTurn(), index, route: 'agentic' });
    const second = await askInConversation(store, id, 'Remind me?', principal, { model: followUp(), index, route: 'agentic' });
    expect(second!.run.answer.citations.map((citation) => [citation.chunkId, citation.stale])).toEqual([['leases#1', undefined]]);
    expect(second!.run.answer.claims?.[0]?.supported).toBe(true);
  });

  it('a follow-up citing a page removed since is stale too', async () => {
    const { id } = await store.create({ principal });
    await askInConversation(store, id, 'How long is a lease?', principal, { model: firstTurn(), index, route: 'agentic' });
    await index.ingest([makeDoc('retries', 'all', [['Retries', 'Failed jobs are retried with exponential backoff.']])]);
    const second = await askInConversation(store, id, 'Remind me?', principal, { model: followUp(), index, route: 'agentic' });
    // The memory no longer holds the removed page, so the quote cannot even verify: dropped, and the run abstains.
    expect(second!.run.answer.abstained).toBe(true);
    expect(second!.run.trace.droppedCitations).toEqual([{ docId: 'leases', quote: SIXTY, reason: 'doc "leases" was never seen or read in this run' }]);
  });
});
