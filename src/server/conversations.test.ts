import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/model.ts';
import { openConversationStore } from '../conversations/sqlite-store.ts';
import type { ConversationStore } from '../conversations/store.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createApp } from './app.ts';
import { conversationsApp } from './conversations.ts';
import { createGatedModel, parseSse } from './test-server.ts';
import type { ServerDeps, ServerEnv } from './types.ts';

const index = createMemoryIndex([
  makeDoc('deploy', '3.x', [
    ['Deploying Orbit', 'Deploy a release with orbit deploy --tag and watch the rollout.'],
    ['Rolling back a release', 'Roll back a bad release with orbit rollback --to the previous tag; running jobs finish first.'],
  ]),
  makeDoc('leases', 'all', [['Leases', 'A worker holds a job for lease_seconds before another worker may take it.']]),
]);
const deps: ServerDeps = { index, model: createOfflineModel(), modelSpec: 'offline', price: null, now: () => 0 };

let dir: string;
let file: string;
let store: ConversationStore;

/** The sub-app behind a stand-in for the server's auth: the principal comes from a test header. */
function appWith(conversationStore: ConversationStore, overrides: Partial<ServerDeps> = {}): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.use('*', async (c, next) => {
    const groups = c.req.header('x-test-groups');
    c.set('principal', groups === undefined ? undefined : { groups: groups.split(',').filter((group) => group !== '') });
    await next();
  });
  app.route('/', conversationsApp({ ...deps, ...overrides }, conversationStore));
  return app;
}
const post = (app: Hono<ServerEnv>, url: string, body?: unknown, groups = 'staff') =>
  app.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-groups': groups }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
const get = (app: Hono<ServerEnv>, url: string, groups = 'staff') => app.request(url, { headers: { 'x-test-groups': groups } });

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-server-conversations-'));
  file = path.join(dir, 'index.db.state.db');
  let next = 0;
  store = openConversationStore({ path: file, randomId: () => `c-${++next}`, now: () => Date.parse('2026-03-04T05:06:07.000Z') });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('conversation routes', () => {
  it('creates a conversation, answers two turns (the second a follow-up), and lists them, also after a restart', async () => {
    const app = appWith(store);
    const created = await post(app, '/v1/conversations');
    expect([created.status, await created.json()]).toEqual([201, { id: 'c-1' }]);

    const first = await post(app, '/v1/conversations/c-1/messages', { content: 'How do I deploy Orbit 3.x?' });
    expect(first.status).toBe(200);
    const one = await first.json();
    expect([one.conversationId, one.turn, one.question, one.route]).toEqual(['c-1', 1, 'How do I deploy Orbit 3.x?', 'agentic']);

    const second = await post(app, '/v1/conversations/c-1/messages', { content: 'and how do I roll that back?' });
    const two = await second.json();
    expect(two.turn).toBe(2);
    expect(two.trace.steps[0].query).toBe('and how do I roll that back? Orbit deploy');
    expect(two.trace.history).toEqual({ given: 1, shown: 1, dropped: 0, tokens: expect.any(Number), cut: false });
    expect(two.answer.citations.map((citation: { chunkId: string }) => citation.chunkId)).toEqual(['deploy#1']);

    await store.close();
    store = openConversationStore({ path: file });
    const listed = await get(appWith(store), '/v1/conversations/c-1');
    expect(listed.status).toBe(200);
    const conversation = await listed.json();
    expect(Object.keys(conversation)).toEqual(['id', 'createdAt', 'filter', 'turns']);
    expect([conversation.id, conversation.createdAt]).toEqual(['c-1', '2026-03-04T05:06:07.000Z']);
    expect(conversation.turns.map((turn: { turn: number; question: string }) => [turn.turn, turn.question])).toEqual([
      [1, 'How do I deploy Orbit 3.x?'],
      [2, 'and how do I roll that back?'],
    ]);
    expect(conversation.turns[1].citations[0].chunkId).toBe('deploy#1');
  });

  it('runs a turn with the ask options of the server (its --route default), as /v1/ask does', async () => {
    const app = new Hono<ServerEnv>();
    app.use('*', async (c, next) => {
      c.set('principal', { groups: ['staff'] });
      await next();
    });
    app.route('/', conversationsApp({ ...deps, route: 'classic' }, store));
    await post(app, '/v1/conversations');
    const turn = await (await post(app, '/v1/conversations/c-1/messages', { content: 'How do I deploy Orbit 3.x?' })).json();
    expect([turn.route, turn.trace.steps.length]).toEqual(['classic', 1]);
    const asked = await (await post(app, '/v1/conversations/c-1/messages', { content: 'How do I deploy Orbit 3.x?', route: 'agentic' })).json();
    expect(asked.route).toBe('agentic');
  });

  it('answers 404 for an unknown id and for another principal\'s conversation alike', async () => {
    const app = appWith(store);
    await post(app, '/v1/conversations');
    const body = (id: string) => ({ error: { code: 'not-found', message: `no conversation "${id}": create one with POST /v1/conversations and use the id it returns.` } });
    const other = await get(app, '/v1/conversations/c-1', 'billing');
    expect([other.status, await other.json()]).toEqual([404, body('c-1')]);
    const anonymous = await app.request('/v1/conversations/c-1');
    expect(anonymous.status).toBe(404);
    const unknown = await get(app, '/v1/conversations/nope');
    expect([unknown.status, await unknown.json()]).toEqual([404, body('nope')]);
    const message = await post(app, '/v1/conversations/c-1/messages', { content: 'How do I deploy?' }, 'billing');
    expect([message.status, await message.json()]).toEqual([404, body('c-1')]);
    expect((await store.get('c-1', { groups: ['staff'] }))?.turns).toEqual([]);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const app = appWith(store);
    await post(app, '/v1/conversations');
    const cases: Array<[unknown, string]> = [
      [{ content: '   ' }, 'content: content must be a non-empty question.'],
      [{}, 'content: Invalid input: expected string, received undefined.'],
      ['{not json', 'the request body is not JSON: send e.g. {"content": "How do I deploy?"}.'],
      [{ content: 'q', route: 'fast' }, 'route: Invalid option: expected one of "classic"|"agentic"|"auto".'],
    ];
    for (const [body, message] of cases) {
      for (const url of ['/v1/conversations/c-1/messages', '/v1/conversations/c-1/messages/stream']) {
        const response = await post(app, url, body);
        expect([url, response.status, await response.json()]).toEqual([url, 400, { error: { code: 'invalid-request', message } }]);
      }
    }
    expect((await store.get('c-1', { groups: ['staff'] }))?.turns).toEqual([]);
  });

  it('a conversation may narrow the server\'s filter to a version, never widen it', async () => {
    const app = appWith(store);
    const created = await post(app, '/v1/conversations', { version: '3.x' });
    expect(created.status).toBe(201);
    expect((await store.get('c-1', { groups: ['staff'] }))?.filter).toEqual({ version: '3.x' });
    const fixed = new Hono<ServerEnv>();
    fixed.route('/', conversationsApp({ ...deps, filter: { version: '2.x' } }, store));
    const refused = await fixed.request('/v1/conversations', { method: 'POST', body: JSON.stringify({ version: '3.x' }) });
    expect([refused.status, await refused.json()]).toEqual([
      400,
      { error: { code: 'invalid-request', message: 'version "3.x" is outside this server\'s version 2.x: leave version out, or pass "2.x".' } },
    ]);
  });
});

describe('a server restarted with a narrower filter', () => {
  // Two release lines and two stores; every page says "rotate the key".
  const pages = createMemoryIndex([
    makeDoc('keys-2x', '2.x', [['Keys in 2.x', 'Rotate the key with orbit key-rotate in 2.x.']]),
    makeDoc('keys-3x', '3.x', [['Keys in 3.x', 'Rotate the key with orbit keys rotate in 3.x.']]),
    makeDoc('keys-guide', 'all', [['Keys', 'Rotate the key monthly, or after a leak.']]),
    withStore(makeDoc('keys-aundh', 'all', [['Keys in Aundh', 'In Aundh, rotate the key at the counter safe.']]), 'Aundh'),
    withStore(makeDoc('keys-baner', 'all', [['Keys in Baner', 'In Baner, rotate the key at the back office.']]), 'Baner'),
  ]);
  const docsOf = (run: { trace: { evidence: Array<{ chunkId: string }> } }) => [...new Set(run.trace.evidence.map((item) => item.chunkId.split('#')[0]!))].sort();

  it('narrows a stored conversation to the server\'s current --version and --label, with a note when they conflict', async () => {
    // Created under a server without a filter: one conversation with no filter of its own, one for 2.x at the Baner store.
    const before = appWith(store, { index: pages });
    expect((await post(before, '/v1/conversations')).status).toBe(201);
    expect((await post(before, '/v1/conversations', { version: '2.x' })).status).toBe(201);
    const first = await (await post(before, '/v1/conversations/c-1/messages', { content: 'How do I rotate the key?' })).json();
    expect(docsOf(first)).toContain('keys-2x');

    const after = appWith(store, { index: pages, filter: { version: '3.x', labels: { store: 'Aundh' } } });
    const turn = await (await post(after, '/v1/conversations/c-1/messages', { content: 'How do I rotate the key?' })).json();
    expect(turn.trace.steps.map((step: { filter: unknown }) => step.filter)).toEqual(turn.trace.steps.map(() => ({ version: '3.x', labels: { store: 'Aundh' }, principal: { groups: ['staff'] } })));
    expect(docsOf(turn).every((doc) => ['keys-3x', 'keys-aundh', 'keys-guide'].includes(doc))).toBe(true);
    expect(JSON.stringify(turn.answer)).not.toMatch(/key-rotate|back office/);
    expect(turn.notes).toEqual([]);
    expect((await (await get(after, '/v1/conversations/c-1')).json()).filter).toEqual({ version: '3.x', labels: { store: 'Aundh' } });

    const conflicting = await (await post(after, '/v1/conversations/c-2/messages', { content: 'How do I rotate the key?' })).json();
    expect(conflicting.trace.steps.map((step: { filter: { version?: string } }) => step.filter.version)).toEqual(conflicting.trace.steps.map(() => 'all'));
    expect(docsOf(conflicting).every((doc) => ['keys-aundh', 'keys-guide'].includes(doc))).toBe(true);
    expect(conflicting.notes).toEqual(['this conversation searches version "2.x" (as it was created), outside the release line "3.x" searched now; only pages for all versions match.']);

    // The streamed turn is held to the same filter, and its run event carries the same notes.
    const streamed = await post(after, '/v1/conversations/c-2/messages/stream', { content: 'and at the counter?' });
    const run = parseSse(await streamed.text()).find((event) => event.event === 'run')!.data as { notes: string[]; trace: { steps: Array<{ filter: { version?: string } }> } };
    expect(run.notes).toEqual(conflicting.notes);
    expect(run.trace.steps.every((step) => step.filter.version === 'all')).toBe(true);
  });
});

function withStore(doc: ReturnType<typeof makeDoc>, store: string): ReturnType<typeof makeDoc> {
  return { ...doc, labels: { store }, chunks: doc.chunks.map((chunk) => ({ ...chunk, labels: { store } })) };
}

describe('POST /v1/conversations/:id/messages/stream', () => {
  const stream = '/v1/conversations/c-2/messages/stream';

  it('streams the turn\'s run events in order, then the same JSON as the non-streamed route; a streamed follow-up sees the earlier turn', async () => {
    const app = appWith(store);
    await post(app, '/v1/conversations');
    await post(app, '/v1/conversations');
    const plain = await (await post(app, '/v1/conversations/c-1/messages', { content: 'How do I deploy Orbit 3.x?' })).json();

    const response = await post(app, stream, { content: 'How do I deploy Orbit 3.x?' });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const events = parseSse(await response.text());
    const types = events.map((event) => event.event);
    expect(types[0]).toBe('run-start');
    expect(types.slice(-3)).toEqual(['answer', 'run-end', 'run']);
    expect(types.filter((type) => type === 'search-start')).toHaveLength(plain.trace.steps.length);
    expect(types.filter((type) => type === 'read')).toHaveLength(plain.trace.reads.length);
    for (const event of events.slice(0, -1)) expect((event.data as { type: string }).type).toBe(event.event);
    expect(events[0]!.data).toEqual({ type: 'run-start', question: 'How do I deploy Orbit 3.x?' });
    expect(events.at(-1)!.data).toEqual({ ...plain, conversationId: 'c-2' });

    const followUp = parseSse(await (await post(app, stream, { content: 'and how do I roll that back?' })).text());
    expect(followUp.find((event) => event.event === 'search-start')!.data).toEqual({ type: 'search-start', query: 'and how do I roll that back? Orbit deploy', version: '3.x' });
    const run = followUp.at(-1)!;
    expect([run.event, (run.data as { conversationId: string }).conversationId, (run.data as { turn: number }).turn]).toEqual(['run', 'c-2', 2]);
    expect((await store.get('c-2', { groups: ['staff'] }))?.turns.map((turn) => [turn.turn, turn.question])).toEqual([
      [1, 'How do I deploy Orbit 3.x?'],
      [2, 'and how do I roll that back?'],
    ]);
  });

  it('a client that goes away aborts the run and stores no turn; the next turn is turn 1', async () => {
    const model = createGatedModel();
    const app = appWith(store, { model });
    await post(app, '/v1/conversations');
    await post(app, '/v1/conversations');
    const response = await post(app, stream, { content: 'How do I deploy Orbit 3.x?' });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('event: run-start\ndata: {"type":"run-start","question":"How do I deploy Orbit 3.x?"}\n\n');
    await model.started(1);
    expect(model.signals[0]!.aborted).toBe(false);
    await reader.cancel();
    expect(model.signals[0]!.aborted).toBe(true);

    // The aborted run ends (stop: error) and is dropped; a whole turn after it is the conversation's first.
    model.release();
    const next = parseSse(await (await post(app, stream, { content: 'How do I roll back a release?' })).text()).at(-1)!;
    expect([next.event, (next.data as { turn: number }).turn]).toEqual(['run', 1]);
    expect((await store.get('c-2', { groups: ['staff'] }))?.turns.map((turn) => [turn.turn, turn.question])).toEqual([[1, 'How do I roll back a release?']]);
  });

  it('the connection closing ends the run at its next model call even when the model ignores the signal; the turn is not stored', async () => {
    // The offline planner, its first call held until released, deaf to the abort signal.
    const offline = createOfflineModel() as LanguageModelV3;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => {};
    const firstCall = new Promise<void>((resolve) => (started = resolve));
    let calls = 0;
    const deaf: LanguageModelV3 = {
      ...offline,
      async doGenerate(call) {
        calls += 1;
        if (calls === 1) {
          started();
          await held;
        }
        return offline.doGenerate(call);
      },
    };
    const app = appWith(store, { model: deaf });
    await post(app, '/v1/conversations');
    const aborter = new AbortController();
    const init = { method: 'POST', body: JSON.stringify({ content: 'How do I deploy Orbit 3.x?' }), headers: { 'x-test-groups': 'staff' }, signal: aborter.signal };
    const response = await app.request('/v1/conversations/c-1/messages/stream', init);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).toBe('event: run-start\ndata: {"type":"run-start","question":"How do I deploy Orbit 3.x?"}\n\n');
    await firstCall;
    aborter.abort(new Error('client went away'));
    release();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
    const run = parseSse(text).at(-1)!;
    const data = run.data as { turn: number | null; trace: { stopReason: string; errors: string[] } };
    expect([run.event, data.turn, data.trace.stopReason]).toEqual(['run', null, 'error']);
    expect(data.trace.errors.at(-1)).toContain('the client closed the connection');
    expect(calls).toBe(1);
    expect((await store.get('c-1', { groups: ['staff'] }))?.turns).toEqual([]);
    expect(await store.passages('c-1')).toEqual([]);
  });

  it('answers 404 in JSON, before any stream, for another principal\'s conversation and an unknown id; nothing is stored', async () => {
    const model = createGatedModel();
    const app = appWith(store, { model });
    await post(app, '/v1/conversations');
    const body = (id: string) => ({ error: { code: 'not-found', message: `no conversation "${id}": create one with POST /v1/conversations and use the id it returns.` } });
    const other = await post(app, '/v1/conversations/c-1/messages/stream', { content: 'How do I deploy?' }, 'billing');
    expect([other.status, other.headers.get('content-type'), await other.json()]).toEqual([404, 'application/json', body('c-1')]);
    const unknown = await post(app, '/v1/conversations/nope/messages/stream', { content: 'How do I deploy?' });
    expect([unknown.status, await unknown.json()]).toEqual([404, body('nope')]);
    expect(model.signals).toEqual([]);
    expect((await store.get('c-1', { groups: ['staff'] }))?.turns).toEqual([]);
  });

  it('a quiet stream gets keep-alive comments every keepAliveMs, and the turn goes on after them', async () => {
    const model = createGatedModel();
    const app = new Hono<ServerEnv>();
    app.use('*', async (c, next) => (c.set('principal', undefined), next()));
    app.route('/', conversationsApp({ ...deps, model }, store, { keepAliveMs: 5 }));
    await app.request('/v1/conversations', { method: 'POST' });
    const response = await app.request('/v1/conversations/c-1/messages/stream', { method: 'POST', body: JSON.stringify({ content: 'How do I deploy Orbit 3.x?' }) });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': keep-alive')) text += decoder.decode((await reader.read()).value);
    expect(text).toBe('event: run-start\ndata: {"type":"run-start","question":"How do I deploy Orbit 3.x?"}\n\n: keep-alive\n\n'.slice(0, text.length));
    model.release();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
    const run = parseSse(text).at(-1)!;
    expect([run.event, (run.data as { turn: number }).turn]).toEqual(['run', 1]);
  });

  it('behind the server\'s auth: 401 without a token, 404 for another token\'s conversation (even one with the same groups), the stream for its own', async () => {
    const auth = {
      source: 'test',
      tokens: [
        { name: 'a', token: 'a'.repeat(20), principal: { groups: ['staff'] } },
        { name: 'b', token: 'b'.repeat(20), principal: { groups: ['billing'] } },
        { name: 'c', token: 'c'.repeat(20), principal: { groups: ['staff'] } },
      ],
    };
    const app = createApp(deps, { auth, routes: [conversationsApp(deps, store)] });
    const as = (token: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${token.repeat(20)}` });
    const { id } = await (await app.request('/v1/conversations', { method: 'POST', headers: as('a') })).json();
    const url = `/v1/conversations/${id}/messages/stream`;
    const body = JSON.stringify({ content: 'How do I deploy Orbit 3.x?' });
    expect((await app.request(url, { method: 'POST', body })).status).toBe(401);
    const other = await app.request(url, { method: 'POST', body, headers: as('b') });
    expect([other.status, (await other.json()).error.code]).toEqual([404, 'not-found']);
    const colleague = await app.request(url, { method: 'POST', body, headers: as('c') });
    expect([colleague.status, (await colleague.json()).error.code]).toEqual([404, 'not-found']);
    expect((await app.request(`/v1/conversations/${id}`, { headers: as('c') })).status).toBe(404);
    const own = await app.request(url, { method: 'POST', body, headers: as('a') });
    expect(own.headers.get('content-type')).toBe('text/event-stream');
    expect(parseSse(await own.text()).at(-1)!.event).toBe('run');
    expect((await store.get(id, { groups: ['staff'] }, 'a'))?.turns.map((turn) => turn.question)).toEqual(['How do I deploy Orbit 3.x?']);
    expect(await store.get(id, { groups: ['staff'] })).toBeUndefined();
    const shown = await (await app.request(`/v1/conversations/${id}`, { headers: as('a') })).json();
    expect(Object.keys(shown).sort()).toEqual(['createdAt', 'filter', 'id', 'turns']);
  });

  it('a turn that throws inside Atlas ends the stream with event: error naming no internals, logs the stack and leaves the conversation unchanged', async () => {
    const log: string[] = [];
    const failing: ConversationStore = { ...store, saveTurn: () => { throw new TypeError('secret internal detail'); } };
    const app = appWith(failing, { log: (line) => log.push(line) });
    await post(app, '/v1/conversations');
    const text = await (await post(app, '/v1/conversations/c-1/messages/stream', { content: 'How do I deploy?' })).text();
    expect(parseSse(text).at(-1)).toEqual({
      event: 'error',
      data: { error: { code: 'internal', message: 'the turn failed inside Atlas; the conversation is unchanged. Try again, or report it with the server log.' } },
    });
    expect(text).not.toContain('secret');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^atlas serve: POST \/v1\/conversations\/c-1\/messages\/stream: unexpected failure: TypeError: secret internal detail\n\s+at /);
    expect((await store.get('c-1', { groups: ['staff'] }))?.turns).toEqual([]);
  });
});
