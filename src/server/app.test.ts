import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/index.ts';
import { routedAsk } from '../agent/policy/route.ts';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { bareAbstentionTurns, CLOSEST_PASSAGES, closestAnswerTurns, MARKED_ANSWER_TEXT, markedAnswerTurns, PAYLOAD_QUESTION } from '../testing/orbit-answers.ts';
import { createApp } from './app.ts';
import { createGatedModel, parseSse, post, testDeps } from './test-server.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

const QUESTION = 'What does ORB-1202 mean?';

describe('GET /healthz', () => {
  it('answers the index stats without auth', async () => {
    const app = createApp(testDeps(index), { auth: { source: 'test', tokens: [{ name: 'a', token: 'a'.repeat(20), principal: undefined }] } });
    const response = await app.request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, docs: 46, chunks: 359, indexVersion: await index.indexVersion() });
  });

  it('is a 503 naming the cause when the index fails, with no stack', async () => {
    const broken: IndexBackend = { ...index, stats: async () => Promise.reject(new (await import('../errors.ts')).AtlasError('index-io', 'Atlas: cannot read /x/index.db: disk I/O error.')) };
    const response = await createApp(testDeps(broken)).request('/healthz');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: { code: 'index-io', message: 'Atlas: cannot read /x/index.db: disk I/O error.' } });
  });
});

describe('errors', () => {
  it('an unknown route is a 404 in the error shape', async () => {
    const response = await createApp(testDeps(index)).request('/v1/nope', { method: 'DELETE' });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error.code).toBe('not-found');
    expect(body.error.message).toMatch(/^Atlas: no route DELETE \/v1\/nope\. The API: GET \/healthz, POST \/v1\/ask/);
  });

  it('an unexpected failure is a 500 that says nothing of its internals; the log gets the stack', async () => {
    const log: string[] = [];
    const broken: IndexBackend = { ...index, search: async () => Promise.reject(new TypeError('secret internal detail')) };
    const response = await createApp(testDeps(broken, { log: (line) => log.push(line) })).request('/v1/search?q=lease');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: 'Atlas: unexpected server failure; the server log has the details. Please report it with the request you sent.' } });
    expect(text).not.toContain('secret');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^atlas serve: GET \/v1\/search: unexpected failure: TypeError: secret internal detail\n\s+at /);
  });

  it.each([
    ['', 'invalid-request', 'Atlas: the request body is empty; send JSON, e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": ', 'invalid-json', 'Atlas: the request body is not valid JSON (Unexpected end of JSON input); send e.g. {"question": "How do I set the lease duration?"}'],
    ['[1]', 'invalid-request', 'Atlas: invalid request: body: must be a JSON object, e.g. {"question": "How do I set the lease duration?"}. Send e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": "  "}', 'invalid-request', 'Atlas: invalid request: question: must not be empty (or only whitespace). Send e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": "q", "maxSearches": 0}', 'invalid-request', 'Atlas: invalid request: maxSearches: must be at least 1. Send e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": "q", "route": "fast"}', 'invalid-request', 'Atlas: invalid request: route: must be one of classic, agentic, auto. Send e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": "q", "labels": {"store": []}}', 'invalid-request', 'Atlas: invalid request: labels.store: must list at least one value. Send e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": "q", "groups": ["admins"]}', 'invalid-request', 'Atlas: invalid request: groups: the groups of a request come from its bearer token, never its body; leave it out. Send e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": "q", "temperature": 1}', 'invalid-request', 'Atlas: invalid request: unknown field "temperature"; an ask has question, version, labels, maxSearches and route. Send e.g. {"question": "How do I set the lease duration?"}'],
    ['{"question": "q", "labels": {"acl": "admins"}}', 'invalid-request', 'Atlas: labels.acl: access is not a label filter; the groups of a request come from its bearer token (the auth file of the server, docs/server.md). Leave labels.acl out.'],
  ])('POST /v1/ask with %j is a 400 naming the field', async (body, code, message) => {
    for (const path of ['/v1/ask', '/v1/ask/stream']) {
      const response = await createApp(testDeps(index)).request(path, post(body));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code, message } });
    }
  });

  it('a body over the limit is a 413, with or without a content-length', async () => {
    const app = createApp(testDeps(index), { limits: { maxBodyBytes: 100 } });
    const big = JSON.stringify({ question: 'x'.repeat(200) });
    const sized = await app.request('/v1/ask', post(big));
    expect(sized.status).toBe(413);
    expect(await sized.json()).toEqual({ error: { code: 'body-too-large', message: "Atlas: the request body is over 100 bytes, the server's limit; send a shorter body." } });
    const stream = new ReadableStream({ start: (controller) => (controller.enqueue(new TextEncoder().encode(big)), controller.close()) });
    const chunked = await app.request('/v1/ask', { method: 'POST', body: stream, duplex: 'half', headers: { 'transfer-encoding': 'chunked' } } as RequestInit);
    expect(chunked.status).toBe(413);
  });
});

describe('POST /v1/ask', () => {
  it('answers the run JSON of atlas ask --json: the same run routedAsk gives with the same options', async () => {
    const response = await createApp(testDeps(index)).request('/v1/ask', post({ question: QUESTION }));
    expect(response.status).toBe(200);
    const body = await response.json();
    const expected = await routedAsk(QUESTION, { route: 'agentic', model: createOfflineModel(), index, price: null, maxSearches: 6, firstTurn: 'required', now: () => 0 });
    expect(body).toEqual(JSON.parse(JSON.stringify({ model: 'offline', ...expected, notes: [] })));
    // Not vacuous: the run cites the error's page, or names it among the closest passages.
    expect([...body.answer.citations, ...(body.answer.closest ?? [])].map((place: { docId: string }) => place.docId)).toContain('error-codes');
    expect(body.route).toBe('agentic');
  });

  it('takes the route asked for, and caps maxSearches at the server\'s with a note', async () => {
    const app = createApp(testDeps(index, { maxSearches: 2 }));
    const body = await (await app.request('/v1/ask', post({ question: QUESTION, maxSearches: 9, route: 'classic' }))).json();
    expect(body.route).toBe('classic');
    expect(body.notes).toEqual(["maxSearches 9 is above the server's 2; 2 searches allowed."]);
    // A planner told to read on (not to stop once the answer is read) searches up to the cap.
    const readsOn = createApp(testDeps(index, { maxSearches: 2, model: createOfflineModel({ planner: { stopWhenStated: false } }) }));
    const agentic = await (await readsOn.request('/v1/ask', post({ question: QUESTION, maxSearches: 9 }))).json();
    expect(agentic.trace.steps).toHaveLength(2);
  });

  it('narrows the server filter with the request, never widens it', async () => {
    const app = createApp(testDeps(index, { filter: { version: '3.x' } }));
    const body = await (await app.request('/v1/ask', post({ question: 'How do I set the lease duration?', version: '2.x', labels: { section: 'guides' } }))).json();
    expect(body.notes).toEqual(['version "2.x" is outside the server\'s release line "3.x"; only pages for all versions match.']);
    expect(body.trace.steps[0].filter).toEqual({ version: 'all', labels: { section: ['guides'] } });
  });

  it('passes an answer\'s [n] markers and an abstention\'s closest passages through as the run has them, streamed or not', async () => {
    for (const path of ['/v1/ask', '/v1/ask/stream']) {
      const marked = createApp(testDeps(index, { model: createScriptedModel(markedAnswerTurns()), modelSpec: 'scripted' }));
      const closest = createApp(testDeps(index, { model: createScriptedModel(closestAnswerTurns()), modelSpec: 'scripted' }));
      const read = async (app: ReturnType<typeof createApp>) => {
        const response = await app.request(path, post({ question: PAYLOAD_QUESTION }));
        expect(response.status).toBe(200);
        return path === '/v1/ask' ? response.json() : (parseSse(await response.text()).at(-1)!.data as any);
      };
      const answered = await read(marked);
      expect([answered.answer.text, answered.answer.citations.map((citation: { chunkId: string }) => citation.chunkId), answered.answer.closest]).toEqual([
        MARKED_ANSWER_TEXT,
        ['api-results#3', 'error-codes#4'],
        undefined,
      ]);
      const abstained = await read(closest);
      expect(abstained.answer).toEqual({ text: "I couldn't find a direct answer in the docs.", citations: [], abstained: true, closest: CLOSEST_PASSAGES });
      expect(abstained.trace.abstainReason).toBe('the model abstained: no direct answer');
    }
  });

  it('shows the closest passages the closest model names when the model abstains without any', async () => {
    const { turns, closest } = bareAbstentionTurns();
    const app = createApp(testDeps(index, { model: createScriptedModel(turns), closestModel: createScriptedModel(closest), modelSpec: 'scripted' }));
    const body = await (await app.request('/v1/ask', post({ question: PAYLOAD_QUESTION }))).json();
    expect([body.answer.closest, body.trace.abstainReason, body.trace.closestBy]).toEqual([CLOSEST_PASSAGES, 'the model abstained', 'closest-model']);
  });

  it('a run the model failed is a 502 with the cause, and the run', async () => {
    const model = createScriptedModel([
      () => {
        throw new Error('provider exploded');
      },
    ]);
    const response = await createApp(testDeps(index, { model, modelSpec: 'scripted', limits: { callTimeoutMs: 1000 } })).request('/v1/ask', post({ question: QUESTION }));
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.error.code).toBe('model-call');
    expect(body.error.message).toMatch(/^Atlas: the run of model "scripted" ended without an answer \(stop: error\): .*provider exploded.*\. The run is in "run"\.$/);
    expect(body.run.trace.stopReason).toBe('error');
  });
});

describe('POST /v1/ask/stream', () => {
  it('streams the run events in order, then the run', async () => {
    const response = await createApp(testDeps(index)).request('/v1/ask/stream', post({ question: QUESTION }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    const expected = await routedAsk(QUESTION, { route: 'agentic', model: createOfflineModel(), index, price: null, maxSearches: 6, now: () => 0 });
    const types = events.map((event) => event.event);
    expect(types[0]).toBe('run-start');
    expect(types.slice(-3)).toEqual(['answer', 'run-end', 'run']);
    expect(types.filter((type) => type === 'search-start')).toHaveLength(expected.trace.steps.length);
    expect(types.filter((type) => type === 'read')).toHaveLength(expected.trace.reads.length);
    for (const event of events.slice(0, -1)) expect((event.data as { type: string }).type).toBe(event.event);
    expect(events[1]!.data).toEqual({ type: 'search-start', query: QUESTION });
    expect(events.at(-1)!.data).toEqual(JSON.parse(JSON.stringify({ model: 'offline', ...expected, notes: [] })));
  });

  it('a stream quiet for keepAliveMs gets a comment line, and the events go on after it', async () => {
    const model = createGatedModel();
    const response = await createApp(testDeps(index, { model }), { keepAliveMs: 5 }).request('/v1/ask/stream', post({ question: QUESTION }));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    while (!text.includes(': keep-alive')) text += decoder.decode((await reader.read()).value);
    expect(text).toBe(`event: run-start\ndata: {"type":"run-start","question":"${QUESTION}"}\n\n: keep-alive\n\n`.slice(0, text.length));
    model.release();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
    expect(parseSse(text).at(-1)!.event).toBe('run');
  });

  it('a client that goes away aborts the run: the model call sees the abort', async () => {
    const model = createGatedModel();
    const response = await createApp(testDeps(index, { model })).request('/v1/ask/stream', post({ question: QUESTION }));
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe(`event: run-start\ndata: {"type":"run-start","question":"${QUESTION}"}\n\n`);
    await model.started(1);
    expect(model.signals[0]!.aborted).toBe(false);
    await reader.cancel();
    expect(model.signals[0]!.aborted).toBe(true);
    expect(model.signals).toHaveLength(1);
  });
});

describe('POST /v1/ask, client gone', () => {
  it('the request signal aborting (the connection closed) aborts the model call; the run ends with the error', async () => {
    const model = createGatedModel();
    const aborter = new AbortController();
    const request = new Request('http://atlas.test/v1/ask', { ...post({ question: QUESTION }), signal: aborter.signal });
    const pending = createApp(testDeps(index, { model })).request(request);
    await model.started(1);
    aborter.abort(new Error('client went away'));
    const response = await pending;
    expect(model.signals[0]!.aborted).toBe(true);
    expect(response.status).toBe(502);
    expect((await response.json()).run.trace.stopReason).toBe('error');
  });
});

describe('routes and mounts of other modules', () => {
  const auth = { source: 'test', tokens: [{ name: 'ci', token: 'c'.repeat(20), principal: { groups: ['staff'] } }] };

  it('sit behind the same auth, and see the principal and client of the token', async () => {
    const { Hono } = await import('hono');
    const extra = new Hono<import('./types.ts').ServerEnv>().get('/v1/whoami', (c) => c.json({ principal: c.get('principal'), client: c.get('client') }));
    const seen: string[] = [];
    const app = createApp(testDeps(index), { auth, limits: { maxConcurrentPerClient: 1 }, routes: [extra], mounts: { '/mcp': async (request, context) => (seen.push(`${new URL(request.url).pathname} ${JSON.stringify(context.principal)}`), new Response('mcp ok')) } });
    expect((await app.request('/v1/whoami')).status).toBe(401);
    expect((await app.request('/mcp', { method: 'POST' })).status).toBe(401);
    const headers = { authorization: `Bearer ${'c'.repeat(20)}` };
    expect(await (await app.request('/v1/whoami', { headers })).json()).toEqual({ principal: { groups: ['staff'] }, client: 'token:ci' });
    const mcp = await app.request('/mcp', { method: 'POST', headers });
    expect([mcp.status, await mcp.text()]).toEqual([200, 'mcp ok']);
    // One slot per request (a client limit of 1 admits it), at the bare path and below it.
    expect((await app.request('/mcp/messages', { method: 'POST', headers })).status).toBe(200);
    expect((await app.request('/mcp/messages', { method: 'POST' })).status).toBe(401);
    expect(seen).toEqual(['/mcp {"groups":["staff"]}', '/mcp/messages {"groups":["staff"]}']);
  });
});

describe('CORS', () => {
  it('is off by default: no Access-Control headers', async () => {
    const response = await createApp(testDeps(index)).request('/v1/search?q=lease', { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with origins, answers their preflight without a token and allows only them', async () => {
    const app = createApp(testDeps(index), { corsOrigins: ['https://docs.example.com'], auth: { source: 'test', tokens: [{ name: 'a', token: 'a'.repeat(20), principal: undefined }] } });
    const preflight = await app.request('/v1/ask', { method: 'OPTIONS', headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://docs.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type');
    const other = await app.request('/v1/search?q=lease', { headers: { origin: 'https://evil.example', authorization: `Bearer ${'a'.repeat(20)}` } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
