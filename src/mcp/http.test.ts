import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import { createTestDoc } from '../index/test-docs.ts';
import type { IndexBackend } from '../index/types.ts';
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './http.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = createSqliteIndex({ path: ':memory:' });
  await index.ingest([
    createTestDoc({ docId: 'queues', title: 'Queues', sections: ['Queues hold jobs until a worker leases them.', { heading: 'Priorities', text: 'Queues have priorities from 1 to 9.' }] }),
    createTestDoc({ docId: 'vault', title: 'Vault', labels: { acl: ['staff'] }, sections: ['The queues vault key rotates weekly.'] }),
    createTestDoc({ docId: 'signing', title: 'Signing', labels: { acl: ['admins'] }, sections: ['Admin signing keys rotate daily.'] }),
  ]);
});
afterAll(async () => {
  await index.close();
});

/** The handler behind a loopback node:http server, with a clock the test moves. */
async function startEndpoint(options: Omit<McpHttpOptions, 'index' | 'now'> = {}) {
  const clock = { ms: 0 };
  let ids = 0;
  const handler = createMcpHttpHandler({ index, now: () => clock.ms, sessionId: () => `session-${++ids}`, ...options });
  // Stands in for the server's token auth: the principal comes from a test header.
  const server = createAdaptorServer({
    fetch: (request: Request) => {
      const groups = request.headers.get('x-test-groups');
      const user = request.headers.get('x-test-user');
      return handler(request, { ...(groups === null ? {} : { principal: { groups: groups.split(',') } }), ...(user === null ? {} : { user }) });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const clients: Client[] = [];
  return {
    handler,
    clock,
    url,
    connect: async (groups?: string) => {
      const client = new Client({ name: 'atlas-http-test', version: '0.0.0' });
      const transport = new StreamableHTTPClientTransport(url, groups === undefined ? {} : { requestInit: { headers: { 'x-test-groups': groups } } });
      await client.connect(transport);
      clients.push(client);
      return { client, transport, call: async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult };
    },
    stop: async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await handler.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Endpoint = Awaited<ReturnType<typeof startEndpoint>>;
const ids = (result: CallToolResult) => (result.structuredContent as { results: Array<{ chunk_id: string }> }).results.map((hit) => hit.chunk_id);
const budget = (result: CallToolResult) => (result.structuredContent as { budget: string }).budget;

/** A raw request on an existing session id (what a client whose session ended would send). */
function post(endpoint: Endpoint, sessionId: string | undefined, body: string, groups?: string, user?: string) {
  return fetch(endpoint.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      ...(groups === undefined ? {} : { 'x-test-groups': groups }),
      ...(user === undefined ? {} : { 'x-test-user': user }),
    },
    body,
  });
}
const LIST_TOOLS = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });

describe('createMcpHttpHandler over loopback HTTP', () => {
  it('keeps one search session per MCP session: seen passages and budget persist across requests, not across sessions', async () => {
    const endpoint = await startEndpoint({ maxSearches: 3 });
    const a = await endpoint.connect();
    const b = await endpoint.connect();
    expect([a.transport.sessionId, b.transport.sessionId]).toEqual(['session-1', 'session-2']);
    expect(endpoint.handler.sessionCount()).toBe(2);
    const first = await a.call('search_docs', { query: 'queues' });
    expect(ids(first)).toEqual(['queues#0', 'queues#1']);
    const again = await a.call('search_docs', { query: 'queues priorities' });
    expect(ids(again)).toEqual([]);
    expect(again.structuredContent).toMatchObject({ note: '2 already-seen passages skipped: queues#1 "Priorities", queues#0 "Queues" (read_section re-reads one); no new passages: search for something else or answer', budget: 'search 2 of 3, 1 left' });
    const other = await b.call('search_docs', { query: 'queues priorities' });
    expect(ids(other).sort()).toEqual(['queues#0', 'queues#1']);
    expect(budget(other)).toBe('search 1 of 3, 2 left');
    await endpoint.stop();
  });

  it('enforces the principal it was built for', async () => {
    const anonymous = await startEndpoint();
    const staff = await startEndpoint({ principal: { groups: ['staff'] }, sessionId: () => 'staff-1' });
    expect(ids(await (await anonymous.connect()).call('search_docs', { query: 'queues vault' })).sort()).toEqual(['queues#0', 'queues#1']);
    expect(ids(await (await staff.connect()).call('search_docs', { query: 'queues vault' })).sort()).toEqual(['queues#0', 'queues#1', 'vault#0']);
    // A session id of one handler means nothing to another (one handler per token).
    expect((await post(staff, 'staff-1', LIST_TOOLS)).status).toBe(200);
    expect((await post(anonymous, 'staff-1', LIST_TOOLS)).status).toBe(404);
    await Promise.all([anonymous.stop(), staff.stop()]);
  });

  it('closes a session idle for longer than idleMs, by the injected clock', async () => {
    const endpoint = await startEndpoint({ idleMs: 60_000 });
    const a = await endpoint.connect();
    endpoint.clock.ms = 60_000;
    expect(budget(await a.call('search_docs', { query: 'queues' }))).toBe('search 1 of 6, 5 left');
    endpoint.clock.ms = 120_001;
    const expired = await post(endpoint, 'session-1', LIST_TOOLS);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found: it ended, expired or never existed. Start a new session: POST initialize without an mcp-session-id header.' },
      id: null,
    });
    expect(endpoint.handler.sessionCount()).toBe(0);
    await endpoint.stop();
  });

  it('bounds the number of sessions, closing the least recently used first', async () => {
    const endpoint = await startEndpoint({ maxSessions: 2 });
    const a = await endpoint.connect();
    await endpoint.connect();
    await a.call('search_docs', { query: 'queues' }); // session-1 is now the most recently used
    await endpoint.connect();
    expect(endpoint.handler.sessionCount()).toBe(2);
    expect((await post(endpoint, 'session-2', LIST_TOOLS)).status).toBe(404);
    expect((await post(endpoint, 'session-1', LIST_TOOLS)).status).toBe(200);
    expect((await post(endpoint, 'session-3', LIST_TOOLS)).status).toBe(200);
    await endpoint.stop();
  });

  it('one client opening sessions without end closes only its own oldest, never another client\'s (101 initialize calls used to end the admin\'s)', async () => {
    const endpoint = await startEndpoint();
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    const open = async (groups: string | undefined, user: string) => {
      const response = await post(endpoint, undefined, initialize, groups, user);
      await response.body?.cancel();
      return [response.status, response.headers.get('mcp-session-id')];
    };
    expect(await open('admins', 'admin-console')).toEqual([200, 'session-1']);
    for (let n = 2; n <= 102; n++) expect(await open(undefined, 'guest-widget')).toEqual([200, `session-${n}`]);
    expect((await post(endpoint, 'session-1', LIST_TOOLS, 'admins', 'admin-console')).status).toBe(200);
    // The guest keeps its 10 most recent sessions (DEFAULT_MAX_SESSIONS_PER_CLIENT); its older ones were closed.
    expect(endpoint.handler.sessionCount()).toBe(11);
    expect((await post(endpoint, 'session-92', LIST_TOOLS, undefined, 'guest-widget')).status).toBe(404);
    expect((await post(endpoint, 'session-93', LIST_TOOLS, undefined, 'guest-widget')).status).toBe(200);
    await endpoint.stop();
  });

  it('with every session taken, a client with none of them is refused (503) rather than end another client\'s; one with some closes its own oldest', async () => {
    const endpoint = await startEndpoint({ maxSessions: 3, maxSessionsPerClient: 2 });
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    const open = async (user: string) => {
      const response = await post(endpoint, undefined, initialize, undefined, user);
      return [response.status, response.headers.get('mcp-session-id') ?? ((await response.json()) as { error: { message: string } }).error.message];
    };
    expect(await open('alice')).toEqual([200, 'session-1']);
    expect(await open('alice')).toEqual([200, 'session-2']);
    expect(await open('alice')).toEqual([200, 'session-3']); // alice's bound is 2: her session-1 is closed
    expect((await post(endpoint, 'session-1', LIST_TOOLS, undefined, 'alice')).status).toBe(404);
    expect(await open('bob')).toEqual([200, 'session-4']);
    expect(await open('carol')).toEqual([503, 'Server busy: all 3 MCP sessions are open, none of them this client\'s, and another client\'s is never closed for a new one. Try again later (a session ends on DELETE, or after 30 minutes without a request).']);
    expect(await open('bob')).toEqual([200, 'session-5']); // the server is full: bob closes his own session-4
    expect((await post(endpoint, 'session-4', LIST_TOOLS, undefined, 'bob')).status).toBe(404);
    for (const [id, user] of [['session-2', 'alice'], ['session-3', 'alice'], ['session-5', 'bob']]) expect((await post(endpoint, id, LIST_TOOLS, undefined, user)).status).toBe(200);
    await endpoint.stop();
  });

  it('under atlas serve\'s app, a client is its token, or its remote address without auth', async () => {
    const { createApp } = await import('../server/app.ts');
    const { testDeps } = await import('../server/test-server.ts');
    let ids = 0;
    const handler = createMcpHttpHandler({ index, maxSessionsPerClient: 1, sessionId: () => `session-${++ids}` });
    const app = createApp(testDeps(index), { mounts: { '/mcp': handler }, remoteAddress: (c) => c.req.header('x-test-address') ?? 'unknown' });
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    const request = (address: string, body: string, sessionId?: string) =>
      app.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-test-address': address, ...(sessionId ? { 'mcp-session-id': sessionId } : {}) }, body });
    for (const address of ['10.0.0.1', '10.0.0.2']) await (await request(address, initialize)).body?.cancel();
    // Two addresses are two clients: the second's session did not close the first's (a bound of 1 each).
    expect(handler.sessionCount()).toBe(2);
    expect((await request('10.0.0.1', LIST_TOOLS, 'session-1')).status).toBe(200);
    await (await request('10.0.0.1', initialize)).body?.cancel();
    expect((await request('10.0.0.1', LIST_TOOLS, 'session-1')).status).toBe(404);
    expect((await request('10.0.0.2', LIST_TOOLS, 'session-2')).status).toBe(200);
    await handler.close();
  });

  it('ends a session on DELETE, and answers requests without a session with the fix', async () => {
    const endpoint = await startEndpoint();
    const a = await endpoint.connect();
    await a.transport.terminateSession();
    expect(endpoint.handler.sessionCount()).toBe(0);
    expect((await post(endpoint, 'session-1', LIST_TOOLS)).status).toBe(404);
    const noSession = await post(endpoint, undefined, LIST_TOOLS);
    expect(noSession.status).toBe(400);
    expect(((await noSession.json()) as { error: { message: string } }).error.message).toBe(
      'Bad Request: no mcp-session-id header. Open a session first: POST initialize without it, then send the mcp-session-id of its response on every request.',
    );
    const notJson = await post(endpoint, undefined, '{"jsonrpc":');
    expect([notJson.status, ((await notJson.json()) as { error: { code: number } }).error.code]).toEqual([400, -32700]);
    const huge = await post(endpoint, undefined, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'x'.repeat(5 * 1024 * 1024) } }));
    expect([huge.status, ((await huge.json()) as { error: { message: string } }).error.message]).toEqual([413, 'Request body too large: at most 4194304 bytes.']);
    expect(endpoint.handler.sessionCount()).toBe(0);
    const get = await fetch(endpoint.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    await get.body?.cancel();
    await endpoint.stop();
  });

  it('runs each session as the principal of the request that opened it, and refuses its id to any other principal', async () => {
    const endpoint = await startEndpoint();
    const staff = await endpoint.connect('staff');
    const anonymous = await endpoint.connect();
    expect(ids(await staff.call('search_docs', { query: 'queues vault' })).sort()).toEqual(['queues#0', 'queues#1', 'vault#0']);
    expect(ids(await anonymous.call('search_docs', { query: 'queues vault' })).sort()).toEqual(['queues#0', 'queues#1']);
    expect((await post(endpoint, 'session-1', LIST_TOOLS, 'staff')).status).toBe(200);
    for (const groups of [undefined, 'admins', 'staff,admins']) expect((await post(endpoint, 'session-1', LIST_TOOLS, groups)).status).toBe(404);
    expect((await post(endpoint, 'session-2', LIST_TOOLS, 'staff')).status).toBe(404);
    await endpoint.stop();
  });

  it('refuses a session\'s id to another user with the same groups (two tokens of one team)', async () => {
    const endpoint = await startEndpoint();
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    const opened = await post(endpoint, undefined, initialize, 'staff', 'alice');
    expect([opened.status, opened.headers.get('mcp-session-id')]).toEqual([200, 'session-1']);
    await opened.body?.cancel();
    expect((await post(endpoint, 'session-1', LIST_TOOLS, 'staff', 'bob')).status).toBe(404);
    expect((await post(endpoint, 'session-1', LIST_TOOLS, 'staff')).status).toBe(404);
    expect((await post(endpoint, 'session-1', LIST_TOOLS, 'staff', 'alice')).status).toBe(200);
    await endpoint.stop();
  });

  it('lets a request principal only narrow the handler\'s own principal', async () => {
    const endpoint = await startEndpoint({ principal: { groups: ['staff', 'finance'] } });
    expect(ids(await (await endpoint.connect('staff')).call('search_docs', { query: 'queues vault' })).sort()).toEqual(['queues#0', 'queues#1', 'vault#0']);
    // finance is allowed by the handler but the vault is staff's; admins is not allowed by the handler.
    expect(ids(await (await endpoint.connect('finance,admins')).call('search_docs', { query: 'queues vault signing' })).sort()).toEqual(['queues#0', 'queues#1']);
    const direct = await startEndpoint();
    expect(ids(await (await direct.connect('finance,admins')).call('search_docs', { query: 'queues vault signing' })).sort()).toEqual(['queues#0', 'queues#1', 'signing#0']);
    await direct.stop();

    await endpoint.stop();
  });

  it('bounds every POST body by maxBodyBytes (atlas serve passes its --max-body), with or without a session', async () => {
    const endpoint = await startEndpoint({ maxBodyBytes: 2048 });
    const a = await endpoint.connect();
    const padded = (id: number, method: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { padding: 'x'.repeat(3000) } });
    for (const session of [undefined, a.transport.sessionId]) {
      const huge = await post(endpoint, session, padded(7, session === undefined ? 'initialize' : 'tools/list'));
      expect([huge.status, ((await huge.json()) as { error: { message: string } }).error.message]).toEqual([413, 'Request body too large: at most 2048 bytes.']);
    }
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0);
    await endpoint.stop();
  });

  it('refuses bounds that are not positive whole numbers', () => {
    expect(() => createMcpHttpHandler({ index, maxSessions: 0 })).toThrow(
      'Atlas: createMcpHttpHandler maxSessions must be a positive whole number, got 0. Pass e.g. maxSessions: 100, or leave it out.',
    );
    expect(() => createMcpHttpHandler({ index, maxSessionsPerClient: 1.5 })).toThrow(
      'Atlas: createMcpHttpHandler maxSessionsPerClient must be a positive whole number, got 1.5. Pass e.g. maxSessionsPerClient: 10, or leave it out.',
    );
  });
});
