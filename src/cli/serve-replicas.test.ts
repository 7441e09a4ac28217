// Two `atlas serve` replicas on one PostgreSQL database, as a team runs them behind a load
// balancer: a conversation goes on on either, concurrent turns are all kept, and a replica killed
// mid-turn takes nothing with it (docs/postgres.md, "Replicas").
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonResponse, hangResponse, startLoopbackServer, type LoopbackServer } from '../testing/loopback-server.ts';
import { ORBIT_DOCS } from '../testing/orbit-index.ts';
import { createTestSchemas, testPostgres } from '../testing/postgres-server.ts';
import { runCli } from './main.ts';
import { recordingIO } from './test-cli.ts';
import { spawnServe, type ServeProcess } from './test-serve.ts';

const server = testPostgres(process.env);
const TOKEN = 'serve-replicas-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const FIRST = 'How do I enqueue a job in Orbit 3.x?';
const FOLLOW_UP = 'and how do I cancel it?';

interface TurnJson {
  conversationId: string;
  turn: number | null;
  trace: { steps: Array<{ query: string; skippedSeen: number; filter: { version?: string } }>; evidence: Array<{ chunkId: string }> };
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
const turnAt = async (replica: ServeProcess, id: string, content: string, route?: 'classic'): Promise<TurnJson> => {
  const response = await post(`${replica.url}/v1/conversations/${id}/messages`, { content, ...(route ? { route } : {}) });
  expect(response.status).toBe(200);
  return (await response.json()) as TurnJson;
};
const storedQuestions = async (replica: ServeProcess, id: string) =>
  ((await (await fetch(`${replica.url}/v1/conversations/${id}`, { headers })).json()) as { turns: Array<{ turn: number; question: string }> }).turns;

describe.skipIf(server.url === undefined)(`atlas serve replicas on one PostgreSQL${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const schemas = createTestSchemas(server.url ?? 'postgres://unused', 'replicas');
  const running: ServeProcess[] = [];
  let db: string;
  let a: ServeProcess;
  let b: ServeProcess;
  const serve = async (model: string) => {
    const replica = await spawnServe(['--db', db, '--model', model, '--max-concurrent', '16', '--max-concurrent-per-client', '16'], { ATLAS_TOKEN: TOKEN });
    running.push(replica);
    return replica;
  };

  beforeAll(async () => {
    db = schemas.fresh();
    expect(await runCli(['ingest', ORBIT_DOCS, '--db', db], recordingIO())).toBe(0);
    [a, b] = await Promise.all([serve('offline'), serve('offline')]);
  }, 60_000);
  afterAll(async () => {
    for (const replica of running) if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGKILL');
    await Promise.all(running.map((replica) => replica.exited));
    await schemas.dropAll();
  });

  it('a conversation started on one replica continues on the other with its memory: what turn 1 was shown is skipped', async () => {
    const created = await post(`${a.url}/v1/conversations`, {});
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const first = await turnAt(a, id, FIRST);
    const second = await turnAt(b, id, FOLLOW_UP);
    expect([second.conversationId, second.turn]).toEqual([id, 2]);
    // The follow-up carries turn 1's words and release line: B read turn 1 from the database.
    expect(second.trace.steps[0]!.query).toBe('and how do I cancel it? Orbit enqueue job');
    expect(second.trace.steps[0]!.filter.version).toBe('3.x');
    expect(second.trace.evidence[0]!.chunkId).toBe('api-client#4');
    const seenBefore = new Set(first.trace.evidence.map((item) => item.chunkId));
    expect(second.trace.evidence.filter((item) => seenBefore.has(item.chunkId))).toEqual([]);
    expect(second.trace.steps.some((step) => step.skippedSeen > 0)).toBe(true);
    expect((await storedQuestions(a, id)).map((turn) => [turn.turn, turn.question])).toEqual([
      [1, FIRST],
      [2, FOLLOW_UP],
    ]);
  });

  it('20 turns of one conversation sent at once over both replicas are all stored, numbered 1 to 20', async () => {
    const { id } = (await (await post(`${b.url}/v1/conversations`, {})).json()) as { id: string };
    const questions = Array.from({ length: 20 }, (_, n) => `How do I enqueue a job in Orbit 3.x? (${n + 1})`);
    // Route classic (one retrieval, one model call): what is measured is the store, not the agent.
    const replies = await Promise.all(questions.map((question, n) => turnAt(n % 2 === 0 ? a : b, id, question, 'classic')));
    expect(replies.map((reply) => reply.turn).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
    const stored = await storedQuestions(b, id);
    expect(stored.map((turn) => turn.turn)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
    expect(stored.map((turn) => turn.question).sort()).toEqual([...questions].sort());
  }, 60_000);

  it('an MCP session opened on one replica goes on on the other: its passages stay shown, its budget counts, DELETE ends it everywhere', async () => {
    const mcpAt = (replica: ServeProcess, sessionId?: string) =>
      new StreamableHTTPClientTransport(new URL(`${replica.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } }, ...(sessionId ? { sessionId } : {}) });
    type SearchResult = { results: Array<{ chunk_id: string }>; searches_used: number; max_searches: number };
    const onA = new Client({ name: 'replica-a', version: '1.0.0' });
    const transportA = mcpAt(a);
    await onA.connect(transportA);
    const first = (await onA.callTool({ name: 'search_docs', arguments: { query: 'ORB-1202 payload too large' } })).structuredContent as SearchResult;
    expect([first.results.length, first.searches_used, first.max_searches]).toEqual([5, 1, 6]);
    // The same session id on the other replica (the client does not initialize again).
    const onB = new Client({ name: 'replica-b', version: '1.0.0' });
    const transportB = mcpAt(b, transportA.sessionId);
    await onB.connect(transportB);
    const again = (await onB.callTool({ name: 'search_docs', arguments: { query: 'ORB-1202 payload too large' } })).structuredContent as SearchResult;
    expect(again.searches_used).toBe(2);
    expect(again.results.length).toBeGreaterThan(0);
    expect(again.results.filter((hit) => first.results.some((shown) => shown.chunk_id === hit.chunk_id))).toEqual([]);
    await transportB.terminateSession();
    const ended = await onA.callTool({ name: 'search_docs', arguments: { query: 'lease' } }).then(
      () => 'answered',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(ended).toContain('Session not found');
    await onA.close();
    await onB.close();
  });

  it('a replica killed with SIGKILL in the middle of a turn takes nothing with it: the conversation goes on on the other', async () => {
    const { id } = (await (await post(`${a.url}/v1/conversations`, {})).json()) as { id: string };
    await turnAt(a, id, FIRST);
    // A third replica whose model searches once, then never answers: its turn is mid-run when it dies.
    const search = jsonResponse({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1764489600,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search_docs', arguments: '{"query":"cancel job"}' } }] }, logprobs: null, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    const model: LoopbackServer = await startLoopbackServer([search, hangResponse()]);
    try {
      const doomed = await serve(`openai-compatible:${model.url}/v1#m`);
      const inFlight = post(`${doomed.url}/v1/conversations/${id}/messages`, { content: 'and how do I retry it?' }).then(
        (response) => response.status,
        (error: unknown) => (error instanceof Error ? 'connection lost' : String(error)),
      );
      // The second model call arrives after the turn's search ran: the run is mid-way.
      while (model.requests().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBe(null);
      expect(doomed.child.signalCode).toBe('SIGKILL');
      expect(await inFlight).toBe('connection lost');
    } finally {
      await model.close();
    }
    const next = await turnAt(b, id, FOLLOW_UP);
    expect(next.turn).toBe(2);
    expect(next.trace.steps[0]!.query).toBe('and how do I cancel it? Orbit enqueue job');
    expect((await storedQuestions(b, id)).map((turn) => [turn.turn, turn.question])).toEqual([
      [1, FIRST],
      [2, FOLLOW_UP],
    ]);
  }, 60_000);
});
