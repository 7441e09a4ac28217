import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/model.ts';
import type { IndexBackend } from '../index/types.ts';
import { createTestDoc } from '../index/test-docs.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { askInConversation } from './ask.ts';
import { openConversationStore } from './sqlite-store.ts';
import type { ConversationStore } from './store.ts';

// A real pair of Orbit pages: enqueueing a job (3.x), then a follow-up that names nothing itself.
// (Orbit has no rollback page; "cancel it" after "enqueue a job" is the same shape of follow-up.)
const FIRST = 'How do I enqueue a job in Orbit 3.x?';
const FOLLOW_UP = 'and how do I cancel it?';

let index: IndexBackend;
let dir: string;
let store: ConversationStore;
const model = createOfflineModel();
const ids = () => {
  let next = 0;
  return () => `conversation-${++next}`;
};
const clock = () => {
  let ms = Date.parse('2026-01-02T03:04:05.000Z');
  return () => (ms += 1000);
};
const staff = { groups: ['staff'] };

beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-conversations-'));
  store = openConversationStore({ path: path.join(dir, 'index.db.state.db'), randomId: ids(), now: clock() });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('askInConversation (offline planner, Orbit)', () => {
  it('answers a follow-up with the earlier turn\'s terms and release line, skipping what the first turn was shown', async () => {
    const { id } = await store.create({ principal: staff });
    const first = await askInConversation(store, id, FIRST, staff, { model, index });
    const reply = await askInConversation(store, id, FOLLOW_UP, staff, { model, index });
    expect(reply?.conversationId).toBe('conversation-1');
    const run = reply!.run;
    // The follow-up searches with the earlier question's words, then with the name its first
    // passages give the job handle (`Client.get_job`), then pages on.
    expect(run.trace.steps.map((step) => [step.query, step.page, step.skippedSeen])).toEqual([
      ['and how do I cancel it? Orbit enqueue job', undefined, 0],
      ['Client.get_job cancel', undefined, 4],
      ['and how do I cancel it? Orbit enqueue job', 2, 5],
    ]);
    expect(run.trace.steps.every((step) => step.filter.version === '3.x')).toBe(true);
    // The answer says what cancelling does to the earlier turn's subject (a queued job): its code
    // names the call asked for (`cancel`), which outranks the client's opening sentence ("... it
    // enqueues jobs, starts flows, looks jobs up and cancels them"), and one sentence holding the
    // asked word with the subject is a direct answer.
    expect(run.answer.text).toBe('`cancel` removes a queued job; a job that is already running finishes its attempt but is not retried, and its outcome is discarded. [1]');
    expect(run.answer.citations.map((citation) => [citation.chunkId, citation.headingPath])).toEqual([['api-client#4', ['Client API', 'Looking up and cancelling jobs']]]);
    // Nothing the first turn was shown is shown again.
    const firstSeen = new Set(first!.run.trace.evidence.map((item) => item.chunkId));
    expect(run.trace.evidence.filter((item) => firstSeen.has(item.chunkId))).toEqual([]);
    expect(run.trace.history).toMatchObject({ given: 1, shown: 1, dropped: 0, cut: false });
    // A budget per turn: the first turn stopped once its first search's passages stated the answer;
    // the follow-up, whose topic is borrowed, searched its whole budget.
    expect([first!.run.trace.steps.length, run.trace.steps.length]).toEqual([1, 3]);
    expect(run.trace.steps.some((step) => step.note === 'budget-exhausted')).toBe(false);
  });

  it('a follow-up asks for the thing its earlier turn was about, by the name the docs give it, and shows the fix', async () => {
    const { id } = await store.create({ principal: staff });
    await askInConversation(store, id, 'Which error does a flow step raise when its result is too big?', staff, { model, index });
    const run = (await askInConversation(store, id, 'and how do I fix it?', staff, { model, index }))!.run;
    // "it" names nothing: the first search carries the earlier question's words; its passages name
    // the error (`ORB-1202` in the sentence that answers the earlier question), so the next search
    // asks for that code with the fix, before the first search's next page.
    expect(run.trace.steps.map((step) => [step.query, step.page])).toEqual([
      ['and how do I fix it? error flow step raise result big', undefined],
      ['ORB-1202 fix', undefined],
      ['and how do I fix it? error flow step raise result big', 2],
    ]);
    // The sentences hold too little of the question and its carried words for a direct answer; the
    // closest passages are about ORB-1202, the last one the results module's, which says how to
    // move data too big for the limit (the durable fix).
    expect(run.answer).toMatchObject({ abstained: true, citations: [] });
    expect(run.answer.closest?.map((passage) => passage.chunkId)).toEqual(['api-testing#7', 'retries#3', 'api-results#0']);
    const fix = run.answer.closest?.[2];
    expect(fix?.sentences).toEqual([
      'Job results and flow step results are kept in the results backend, and like job arguments they are bounded by the payload limit.',
      'The `orbit.results` module is how you move data that is too big for that limit: you write it to a blob store, get back a small `ResultRef`, and pass the reference around instead of the data.',
    ]);
  });

  it('asked without the conversation, the same follow-up searches as written and loses the release line', async () => {
    const { id } = await store.create({ principal: staff });
    const run = (await askInConversation(store, id, FOLLOW_UP, staff, { model, index }))!.run;
    expect(run.trace.steps[0]?.query).toBe(FOLLOW_UP);
    expect(run.trace.steps[0]?.filter.version).toBeUndefined();
    expect(run.trace.history).toBeUndefined();
  });

  it('keeps everything across a restart: turns, times, seen passages and the query log', async () => {
    const file = path.join(dir, 'index.db.state.db');
    const { id } = await store.create({ principal: staff });
    const first = (await askInConversation(store, id, FIRST, staff, { model, index }))!;
    await store.close();

    store = openConversationStore({ path: file, randomId: ids(), now: clock() });
    const stored = (await store.get(id, staff))!;
    expect(stored.turns.map((turn) => [turn.turn, turn.question, turn.abstained, turn.startedAt])).toEqual([[1, FIRST, false, '2026-01-02T03:04:07.000Z']]);
    expect(stored.turns[0]?.citations).toEqual(first.run.answer.citations);
    expect(stored.turns[0]?.trace.searches.map((search) => search.query)).toEqual(first.run.trace.steps.map((step) => step.query));
    expect((await store.passages(id)).map((passage) => passage.chunkId)).toEqual(first.run.trace.evidence.map((item) => item.chunkId));

    const reply = (await askInConversation(store, id, FOLLOW_UP, staff, { model, index }))!;
    expect(reply.turn?.turn).toBe(2);
    expect(reply.run.trace.steps[0]?.query).toBe('and how do I cancel it? Orbit enqueue job');
    const firstSeen = new Set(first.run.trace.evidence.map((item) => item.chunkId));
    expect(reply.run.trace.evidence.filter((item) => firstSeen.has(item.chunkId))).toEqual([]);
  });

  it('two conversations share nothing: the second starts with no history and no seen passages', async () => {
    const a = await store.create({ principal: staff });
    const b = await store.create({ principal: staff });
    expect([a.id, b.id]).toEqual(['conversation-1', 'conversation-2']);
    await askInConversation(store, a.id, FIRST, staff, { model, index });
    const other = (await askInConversation(store, b.id, FIRST, staff, { model, index }))!;
    expect(other.run.trace.steps[0]?.skippedSeen).toBe(0);
    expect(other.run.trace.history).toBeUndefined();
    expect((await store.get(b.id, staff))?.turns.length).toBe(1);
    expect((await store.passages(b.id)).length).toBe(other.run.trace.evidence.length);
  });

  it('a conversation is not found by another principal, exactly like an unknown id', async () => {
    const { id } = await store.create({ principal: staff });
    expect((await store.get(id, { groups: ['staff'] }))?.id).toBe(id);
    expect(await store.get(id, undefined)).toBeUndefined();
    expect(await store.get(id, { groups: ['staff', 'admin'] })).toBeUndefined();
    expect(await askInConversation(store, id, FIRST, { groups: [] }, { model, index })).toBeUndefined();
    expect(await askInConversation(store, 'no-such-id', FIRST, staff, { model, index })).toBeUndefined();
    expect((await store.get(id, staff))?.turns).toEqual([]);
  });

  it('20 conversations asked at once share no evidence: each stores exactly what its own turns were shown', async () => {
    // Twenty pages that share no word, so each question finds exactly its own page.
    const names = 'amber basil cedar delta ember fjord garnet harbor indigo jasper kestrel lumen marlin nectar onyx pepper quartz raven saffron tundra'.split(' ');
    const small = createMemoryIndex(names.map((name, n) => makeDoc(`topic-${n}`, 'all', [[name, `${name} enables ${name}ness.`]])));
    const conversations: string[] = [];
    for (const _name of names) conversations.push((await store.create({ principal: staff })).id);
    const replies = await Promise.all(conversations.map((id, n) => askInConversation(store, id, `Explain ${names[n]}.`, staff, { model, index: small })));
    for (const [n, reply] of replies.entries()) {
      const shown = reply!.run.trace.evidence.map((item) => item.chunkId);
      expect(shown).toEqual([`topic-${n}#0`]);
      expect((await store.passages(conversations[n]!)).map((passage) => passage.chunkId)).toEqual(shown);
      expect((await store.get(conversations[n]!, staff))?.turns.map((turn) => turn.question)).toEqual([`Explain ${names[n]}.`]);
    }
  });

  it('does not store a turn whose model failed, so a retry starts from the same state', async () => {
    const { id } = await store.create({ principal: staff });
    const failed = (await askInConversation(store, id, FIRST, staff, { model: createScriptedModel([]), index, maxRetries: 0 }))!;
    expect([failed.run.trace.stopReason, failed.turn]).toEqual(['error', undefined]);
    expect((await store.get(id, staff))?.turns).toEqual([]);
    expect(await store.passages(id)).toEqual([]);
  });

  describe('under a narrower current filter (a server restarted with another --version or --label)', () => {
    // Two release lines and two stores; every page says "rotate the key", so any filter shows something.
    const pages = createMemoryIndex([
      createTestDoc({ docId: 'keys-2x', appliesTo: '2.x', sections: ['Rotate the key with orbit key-rotate in 2.x.'] }),
      createTestDoc({ docId: 'keys-3x', appliesTo: '3.x', sections: ['Rotate the key with orbit keys rotate in 3.x.'] }),
      createTestDoc({ docId: 'keys-guide', sections: ['Rotate the key monthly, or after a leak.'] }),
      createTestDoc({ docId: 'keys-aundh', labels: { store: 'Aundh' }, sections: ['In Aundh, rotate the key at the counter safe.'] }),
      createTestDoc({ docId: 'keys-baner', labels: { store: 'Baner' }, sections: ['In Baner, rotate the key at the back office.'] }),
    ]);
    const QUESTION = 'How do I rotate the key?';
    const seenDocs = (reply: { run: { trace: { evidence: Array<{ chunkId: string }> } } }) => [...new Set(reply.run.trace.evidence.map((item) => item.chunkId.split('#')[0]!))].sort();

    it('the current filter wins: a conversation created with no filter searches the current version and labels', async () => {
      const { id } = await store.create({ principal: staff });
      const reply = (await askInConversation(store, id, QUESTION, staff, { model, index: pages, currentFilter: { version: '3.x', labels: { store: 'Aundh' } } }))!;
      expect(reply.run.trace.steps.map((step) => step.filter)).toEqual(reply.run.trace.steps.map(() => ({ version: '3.x', labels: { store: 'Aundh' }, principal: staff })));
      expect(seenDocs(reply)).toEqual(['keys-3x', 'keys-aundh', 'keys-guide']);
      expect(reply.notes).toEqual([]);
    });

    it('a stored version or label value outside the current filter keeps only the pages for all of them, with a note', async () => {
      const { id } = await store.create({ principal: staff, filter: { version: '2.x', labels: { store: ['Baner'] } } });
      const reply = (await askInConversation(store, id, QUESTION, staff, { model, index: pages, currentFilter: { version: '3.x', labels: { store: ['Aundh'] } } }))!;
      expect(reply.run.trace.steps.map((step) => step.filter)).toEqual(reply.run.trace.steps.map(() => ({ version: 'all', labels: { store: ['all'] }, principal: staff })));
      expect(seenDocs(reply)).toEqual(['keys-guide']);
      expect(reply.notes).toEqual([
        'this conversation searches version "2.x" (as it was created), outside the release line "3.x" searched now; only pages for all versions match.',
        'this conversation searches labels.store "Baner" (as it was created), outside the values searched now (Aundh); only pages for all values of "store" match.',
      ]);
      // The seen passages of an earlier turn outside the current filter are not its evidence any more.
      expect((await store.get(id, staff))?.filter).toEqual({ version: '2.x', labels: { store: ['Baner'] } });
    });

    it('a stored filter inside the current one is kept as it is', async () => {
      const { id } = await store.create({ principal: staff, filter: { version: '3.x', labels: { store: ['Aundh'] } } });
      const reply = (await askInConversation(store, id, QUESTION, staff, { model, index: pages, currentFilter: { version: '3.x', labels: { store: ['Aundh', 'Baner'] } } }))!;
      expect(reply.run.trace.steps.map((step) => step.filter)).toEqual(reply.run.trace.steps.map(() => ({ version: '3.x', labels: { store: ['Aundh'] }, principal: staff })));
      expect(reply.notes).toEqual([]);
    });

    it('an earlier turn\'s passages outside the current filter cannot be cited any more', async () => {
      const { id } = await store.create({ principal: staff });
      const first = (await askInConversation(store, id, QUESTION, staff, { model, index: pages }))!;
      expect(seenDocs(first)).toContain('keys-2x');
      const second = (await askInConversation(store, id, 'and in 2.x?', staff, { model, index: pages, currentFilter: { version: '3.x' } }))!;
      const texts = JSON.stringify(second.run.answer) + JSON.stringify(second.run.trace.evidence);
      expect(texts).not.toContain('key-rotate');
    });
  });

  it('searches with the filter the conversation was created with', async () => {
    const { id, filter } = await store.create({ principal: staff, filter: { version: '2.x' } });
    expect(filter).toEqual({ version: '2.x' });
    const run = (await askInConversation(store, id, 'How do I set the lease timeout?', staff, { model, index }))!.run;
    expect(run.trace.steps.map((step) => step.filter)).toEqual(run.trace.steps.map(() => ({ version: '2.x', principal: { groups: ['staff'] } })));
  });
});
