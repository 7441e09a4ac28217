// The options of the MCP HTTP handlers (http.ts, shared-http.ts): their session bounds, defaults and checks.
import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { AtlasError } from '../errors.ts';
import type { Principal, SearchFilter } from '../index/types.ts';
import { enforcedFilter, type AtlasMcpServerOptions } from './server.ts';

/** Open MCP sessions per handler when none is given. */
export const DEFAULT_MAX_SESSIONS = 100;
/** Open MCP sessions per client (token) when none is given. */
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 10;
/** A session unused for this long is closed (30 minutes) when none is given. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** Options of `createMcpHttpHandler` (http.ts): the server of each session, and the session bounds. */
export interface McpHttpOptions extends AtlasMcpServerOptions {
  /**
   * Open sessions at most (default {@link DEFAULT_MAX_SESSIONS}). A new one past it closes the
   * opening client's least recently used session; a client with none open is refused (503):
   * another client's session is never closed for it.
   */
  maxSessions?: number;
  /** Open sessions per client at most (default {@link DEFAULT_MAX_SESSIONS_PER_CLIENT}); a new one past it closes that client's least recently used. */
  maxSessionsPerClient?: number;
  /** A session with no request for longer is closed (default {@link DEFAULT_SESSION_IDLE_MS}), by `now`. */
  idleMs?: number;
  /** Clock in ms (default `Date.now`); sessions expire by it, checked on each request. */
  now?: () => number;
  /** Makes session ids (default `crypto.randomUUID`). */
  sessionId?: () => string;
  /** Largest POST body in bytes (default the SDK's, 4 MiB); `atlas serve` passes its `--max-body`. Larger is a 413. */
  maxBodyBytes?: number;
}

/** An HTTP handler's options with their defaults and bounds checked; both MCP HTTP handlers read them so. */
export interface ResolvedHttpOptions {
  maxSessions: number;
  maxSessionsPerClient: number;
  idleMs: number;
  now: () => number;
  sessionId: () => string;
  maxBodyBytes: number;
  /** The handler's filter, its own principal joined, so a request's principal can only narrow it. */
  filter: SearchFilter | undefined;
  /** The server options without the bounds and the handler's principal. */
  serverOptions: AtlasMcpServerOptions;
  /** The options of the MCP server that answers a request of `principal`: the handler's filter, narrowed by it. */
  serverOptionsFor: (principal: Principal | undefined) => AtlasMcpServerOptions;
}

/**
 * Fills in the defaults of `options` and checks every bound (an AtlasError naming the option,
 * the bad value and an example when one is not a positive whole number).
 *
 * @example
 * resolveHttpOptions({ index, idleMs: 0 }); // throws: Atlas: createMcpHttpHandler idleMs must be a positive whole number, got 0. ...
 */
export function resolveHttpOptions(options: McpHttpOptions): ResolvedHttpOptions {
  const {
    maxSessions = DEFAULT_MAX_SESSIONS,
    maxSessionsPerClient = DEFAULT_MAX_SESSIONS_PER_CLIENT,
    idleMs = DEFAULT_SESSION_IDLE_MS,
    now = Date.now,
    sessionId = randomUUID,
    maxBodyBytes = DEFAULT_MAX_REQUEST_BODY_SIZE,
    principal: fixedPrincipal,
    ...serverOptions
  } = options;
  const filter = enforcedFilter(serverOptions.filter, fixedPrincipal);
  checkBound('maxSessions', maxSessions);
  checkBound('maxSessionsPerClient', maxSessionsPerClient);
  checkBound('idleMs', idleMs);
  checkBound('maxBodyBytes', maxBodyBytes);
  const serverOptionsFor = (principal: Principal | undefined): AtlasMcpServerOptions => ({ ...serverOptions, ...(filter ? { filter } : {}), ...(principal ? { principal } : {}) });
  return { maxSessions, maxSessionsPerClient, idleMs, now, sessionId, maxBodyBytes, filter, serverOptions, serverOptionsFor };
}

function checkBound(name: 'idleMs' | 'maxSessions' | 'maxSessionsPerClient' | 'maxBodyBytes', value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    const example = { idleMs: DEFAULT_SESSION_IDLE_MS, maxSessions: DEFAULT_MAX_SESSIONS, maxSessionsPerClient: DEFAULT_MAX_SESSIONS_PER_CLIENT, maxBodyBytes: DEFAULT_MAX_REQUEST_BODY_SIZE }[name];
    throw new AtlasError('usage', `Atlas: createMcpHttpHandler ${name} must be a positive whole number, got ${String(value)}. Pass e.g. ${name}: ${example}, or leave it out.`);
  }
}
