// The /mcp endpoint of `atlas serve` replicas on one PostgreSQL database: MCP sessions kept in
// the state tables, so a session opened on one replica goes on on any other (docs/mcp.md).
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { SearchMemory } from '../agent/session/search-memory.ts';
import type { McpSessionStore } from '../conversations/mcp-sessions.ts';
import type { Principal } from '../index/types.ts';
import {
  cancelOnDisconnect,
  idleText,
  jsonRpcError,
  ownerKey,
  readJsonRpc,
  type McpHttpHandler,
  type McpRequestContext,
} from './http.ts';
import { resolveHttpOptions, type McpHttpOptions } from './http-options.ts';
import { createAtlasMcpSession, enforcedFilter, type RestoredMcpSession } from './server.ts';

/** Options of {@link createSharedMcpHttpHandler}: those of `createMcpHttpHandler`, and where sessions are kept. */
export interface SharedMcpHttpOptions extends Omit<McpHttpOptions, 'now'> {
  sessions: McpSessionStore;
  /** Wall clock in whole ms (default `Date.now`): session times are stored and compared across replicas, so not a process's monotonic clock. */
  now?: () => number;
}

/**
 * The `/mcp` endpoint with its sessions in `sessions` (e.g. `createPostgresMcpSessions`) instead
 * of this process's memory: same protocol, bounds and 404s as `createMcpHttpHandler`, but every
 * request is served by a fresh MCP server and a stateless transport that answer it as JSON, its
 * search session restored from the stored record (passages shown: skipped and citable; searches
 * used: counted toward the budget) and what the request added stored back. So any replica
 * accepts any session id, and a replica that dies loses only the requests it was serving.
 * Not carried over: the GET event stream (405: the client's requests get their answers in their
 * responses), progress notifications of a running `ask` (its answer still comes), the refusal of a
 * query repeated in an earlier request (it runs, skipping what was shown) and the in-session
 * naming of skipped passages (they are counted, as an earlier turn's are in a conversation).
 *
 * @example
 * const mcp = createSharedMcpHttpHandler({ index, maxSearches: 6, sessions: createPostgresMcpSessions(state) });
 * app.all('/mcp', (c) => mcp(c.req.raw, { principal: c.get('principal') }));
 */
export function createSharedMcpHttpHandler(options: SharedMcpHttpOptions): McpHttpHandler {
  const { sessions, ...httpOptions } = options;
  const { maxSessions, maxSessionsPerClient, idleMs, now, sessionId, maxBodyBytes, filter, serverOptions, serverOptionsFor } = resolveHttpOptions(httpOptions);
  const inFlight = new Set<Promise<unknown>>();

  /** Answers one request with a fresh server over `restored` (none for initialize); returns the response and the search session after it. */
  const serve = async (request: Request, body: unknown, principal: Principal | undefined, restored?: RestoredMcpSession) => {
    const { server, session } = createAtlasMcpSession(serverOptionsFor(principal), restored);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      cancelOnDisconnect(request, body, transport);
      return { response: await transport.handleRequest(request, { parsedBody: body }), session };
    } finally {
      await server.close();
    }
  };

  const continueSession = async (request: Request, id: string, owner: string, principal: Principal | undefined): Promise<Response> => {
    const record = await sessions.get(id, now(), idleMs);
    if (!record || record.owner !== owner) {
      return jsonRpcError(404, -32001, 'Session not found: it ended, expired or never existed. Start a new session: POST initialize without an mcp-session-id header.');
    }
    if (request.method === 'DELETE') {
      await sessions.end(id);
      return new Response(null, { status: 200 });
    }
    if (request.method !== 'POST') {
      return jsonRpcError(405, -32000, 'Method not allowed: this server keeps no event stream per session (its replicas share sessions); every request gets its answer in its response.');
    }
    const read = await readJsonRpc(request, maxBodyBytes);
    if (!read.ok) return read.response;
    const sessionFilter = enforcedFilter(filter, principal);
    const memory = await SearchMemory.restore(record.passages, (chunkId) => serverOptions.index.getChunk(chunkId, sessionFilter));
    const { response, session } = await serve(request, read.body, principal, { memory, searchesBefore: record.searchesUsed });
    memory.remember(session.evidence);
    const change = { passages: memory.takeChanges(), searchesUsed: session.searchesUsed - record.searchesUsed };
    if (change.passages.length > 0 || change.searchesUsed > 0) await sessions.record(id, change);
    return response;
  };

  const openSession = async (request: Request, owner: string, context: McpRequestContext): Promise<Response> => {
    if (request.method !== 'POST') {
      return jsonRpcError(400, -32000, `Bad Request: ${request.method} needs the mcp-session-id header of an open session. Open one first: POST initialize without it.`);
    }
    const read = await readJsonRpc(request, maxBodyBytes);
    if (!read.ok) return read.response;
    const messages = Array.isArray(read.body) ? read.body : [read.body];
    if (!messages.some((message) => isInitializeRequest(message))) {
      return jsonRpcError(400, -32000, 'Bad Request: no mcp-session-id header. Open a session first: POST initialize without it, then send the mcp-session-id of its response on every request.');
    }
    const id = sessionId();
    const admitted = await sessions.open({ id, owner, client: context.client ?? owner }, now(), { maxSessions, maxSessionsPerClient, idleMs });
    if (!admitted.ok) {
      return jsonRpcError(
        503,
        -32000,
        `Server busy: all ${maxSessions} MCP sessions are open, none of them this client's, and another client's is never closed for a new one. Try again later (a session ends on DELETE, or after ${idleText(idleMs)} without a request).`,
      );
    }
    const { response } = await serve(request, read.body, context.principal);
    const headers = new Headers(response.headers);
    headers.set('mcp-session-id', id);
    return new Response(response.body, { status: response.status, headers });
  };

  const handle = (request: Request, context: McpRequestContext = {}): Promise<Response> => {
    const owner = ownerKey(context.principal, context.user);
    const id = request.headers.get('mcp-session-id');
    const work = id === null ? openSession(request, owner, context) : continueSession(request, id, owner, context.principal);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };

  return Object.assign(handle, {
    // Sessions live in the store; this process holds none between requests.
    sessionCount: () => 0,
    close: async () => {
      await Promise.allSettled([...inFlight]);
      await sessions.close();
    },
  });
}
