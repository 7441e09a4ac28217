import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { principalGroups } from '../index/filter.ts';
import type { Principal } from '../index/types.ts';
import { resolveHttpOptions, type McpHttpOptions } from './http-options.ts';
import { createAtlasMcpServer } from './server.ts';

export { DEFAULT_MAX_SESSIONS, DEFAULT_MAX_SESSIONS_PER_CLIENT, DEFAULT_SESSION_IDLE_MS, type McpHttpOptions } from './http-options.ts';

/** Who sends a request, as the server's authentication found it (e.g. from the bearer token). */
export interface McpRequestContext {
  /** The request's principal; undefined means anonymous (public pages only, unless the handler's own principal says more). */
  principal?: Principal;
  /** The user of the request (a token's name): a session opened by another user does not exist for it. */
  user?: string;
  /**
   * Who the request counts against in the per-client session bound (`atlas serve`: `token:<name>`,
   * else `address:<remote address>`); default: the user and the principal's groups.
   */
  client?: string;
}

/** A web-standard MCP endpoint (Streamable HTTP): one MCP session, and search session, per `mcp-session-id`. */
export interface McpHttpHandler {
  (request: Request, context?: McpRequestContext): Promise<Response>;
  /** Sessions open now (expired ones are counted until the next request closes them). */
  sessionCount(): number;
  /** Closes every session (a server shutting down). */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
  /** Who opened the session (the user, if any, and the principal's sorted groups, as JSON): only they may use it. */
  owner: string;
  /** The client it counts against in the per-client bound. */
  client: string;
}

/**
 * Builds the `/mcp` endpoint of an HTTP server: POST an `initialize` without `mcp-session-id` to
 * open a session (the response carries its id), then send that id on every request (POST, GET
 * for the event stream, DELETE to end it). Each session has its own MCP server and
 * SearchSession: its own budget, seen passages and query log, under the handler's filter and the
 * principal of the request that opened it (`context.principal`, intersected with the handler's
 * own `principal` when both are set). A session is bound to that principal and to the request's
 * `context.user` (a token's name): a request of another principal or user naming its id gets the
 * same 404 as an unknown id. Sessions are bounded in number per client (`maxSessionsPerClient`,
 * `context.client`) and in all (`maxSessions`): a client past either closes its own least recently
 * used session, never another client's (a client with none open is refused with 503 when all are
 * taken), and in idle time (`idleMs`, by `now`).
 *
 * @example
 * const mcp = createMcpHttpHandler({ index, maxSearches: 6 });
 * app.all('/mcp', (c) => mcp(c.req.raw, { principal: c.get('principal') })); // after token auth
 */
export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const { maxSessions, maxSessionsPerClient, idleMs, now, sessionId, maxBodyBytes, serverOptionsFor } = resolveHttpOptions(options);
  // Insertion order is use order: a session is moved to the end on each request.
  const sessions = new Map<string, Session>();
  // Sessions being opened (their initialize in flight), per client and in all: they count against the bounds.
  const opening = new Map<string, number>();
  let openingTotal = 0;

  // Sessions taken out of `sessions` to make room, while they close.
  const closing = new Map<string, Session>();
  const closeSession = async (id: string) => {
    const session = sessions.get(id) ?? closing.get(id);
    if (!session) return;
    sessions.delete(id);
    closing.delete(id);
    await session.server.close();
  };

  const sweep = async (at: number) => {
    const expired = [...sessions].filter(([, session]) => at - session.lastUsed > idleMs).map(([id]) => id);
    await Promise.all(expired.map(closeSession));
  };

  /**
   * Makes room for one more session of `client`, synchronously (so concurrent initializes cannot
   * overshoot): the sessions to close, all of them the client's own, least recently used first;
   * or why there is no room without closing another client's session.
   */
  const admit = (client: string): { ok: true; victims: string[] } | { ok: false; message: string } => {
    const own = [...sessions].filter(([, session]) => session.client === client).map(([id]) => id);
    const ownOpening = opening.get(client) ?? 0;
    const victims: string[] = [];
    const overClient = () => own.length + ownOpening >= maxSessionsPerClient;
    const overServer = () => sessions.size - victims.length + openingTotal >= maxSessions;
    while ((overClient() || overServer()) && own.length > 0) victims.push(own.shift()!);
    if (overClient()) {
      return { ok: false, message: `Too many sessions: this client is opening ${ownOpening} MCP sessions at once, its bound is ${maxSessionsPerClient}. Wait for them, then try again.` };
    }
    if (overServer()) {
      return {
        ok: false,
        message: `Server busy: all ${maxSessions} MCP sessions are open, none of them this client's, and another client's is never closed for a new one. Try again later (a session ends on DELETE, or after ${idleText(idleMs)} without a request).`,
      };
    }
    for (const id of victims) {
      closing.set(id, sessions.get(id)!);
      sessions.delete(id);
    }
    return { ok: true, victims };
  };

  const open = async (request: Request, body: unknown, principal: Principal | undefined, owner: string, client: string): Promise<Response> => {
    const admission = admit(client);
    if (!admission.ok) return jsonRpcError(503, -32000, admission.message);
    const { victims } = admission;
    opening.set(client, (opening.get(client) ?? 0) + 1);
    openingTotal += 1;
    try {
      await Promise.all(victims.map((id) => closeSession(id)));
      const server = createAtlasMcpServer(serverOptionsFor(principal));
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: sessionId,
        onsessioninitialized: (id) => {
          sessions.set(id, { server, transport, lastUsed: now(), owner, client });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      const left = (opening.get(client) ?? 1) - 1;
      if (left === 0) opening.delete(client);
      else opening.set(client, left);
      openingTotal -= 1;
    }
  };

  const handle = async (request: Request, context: McpRequestContext = {}): Promise<Response> => {
    const at = now();
    await sweep(at);
    const owner = ownerKey(context.principal, context.user);
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = sessions.get(id);
      if (!session || session.owner !== owner) {
        return jsonRpcError(404, -32001, 'Session not found: it ended, expired or never existed. Start a new session: POST initialize without an mcp-session-id header.');
      }
      session.lastUsed = at;
      sessions.delete(id);
      sessions.set(id, session);
      if (request.method !== 'POST') return session.transport.handleRequest(request);
      const read = await readJsonRpc(request, maxBodyBytes);
      if (!read.ok) return read.response;
      cancelOnDisconnect(request, read.body, session.transport);
      return session.transport.handleRequest(request, { parsedBody: read.body });
    }
    if (request.method !== 'POST') {
      return jsonRpcError(400, -32000, `Bad Request: ${request.method} needs the mcp-session-id header of an open session. Open one first: POST initialize without it.`);
    }
    // Read as the transport would: bounded, so a huge body without a session costs nothing.
    const read = await readJsonRpc(request, maxBodyBytes);
    if (!read.ok) return read.response;
    const body = read.body;
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.some((message) => isInitializeRequest(message))) {
      return jsonRpcError(400, -32000, 'Bad Request: no mcp-session-id header. Open a session first: POST initialize without it, then send the mcp-session-id of its response on every request.');
    }
    return open(request, body, context.principal, owner, context.client ?? owner);
  };

  return Object.assign(handle, {
    sessionCount: () => sessions.size,
    close: async () => {
      await Promise.all([...sessions.keys(), ...closing.keys()].map(closeSession));
    },
  });
}

/** A POST body read as the transport would (bounded), parsed as JSON; or the error response. */
export async function readJsonRpc(request: Request, maxBytes: number): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  const read = await readRequestBody(request, maxBytes);
  if (read.tooLarge) return { ok: false, response: jsonRpcError(413, -32600, `Request body too large: at most ${maxBytes} bytes.`) };
  try {
    return { ok: true, body: JSON.parse(read.text) as unknown };
  } catch {
    return { ok: false, response: jsonRpcError(400, -32700, 'Parse error: the body must be a JSON-RPC message (JSON).') };
  }
}

/**
 * When the client closes the connection of a POST before its answer is complete (its `signal`
 * aborts), each request of the body is cancelled as a `notifications/cancelled` of the client
 * would: its handler's abort signal fires (an `ask` stops its run). A request already answered
 * is not cancelled (the SDK ignores the id).
 */
export function cancelOnDisconnect(request: Request, body: unknown, transport: WebStandardStreamableHTTPServerTransport): void {
  const ids = (Array.isArray(body) ? body : [body]).flatMap((message) => (isJSONRPCRequest(message) ? [message.id] : []));
  if (ids.length === 0) return;
  request.signal.addEventListener(
    'abort',
    () => {
      for (const requestId of ids) transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the client closed the connection' } });
    },
    { once: true },
  );
}

export function ownerKey(principal: Principal | undefined, user: string | undefined): string {
  return JSON.stringify([user ?? null, principal === undefined ? 'anonymous' : [...principalGroups(principal)].sort()]);
}

export function idleText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.ceil(ms / 1000)} seconds`;
}

export function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}
