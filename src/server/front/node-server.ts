// The Node HTTP server of `atlas serve`: the app's fetch handler behind Node's own read timeouts,
// so a client that sends its headers or its body slowly (or never finishes) gets a 408 and its
// connection closed, instead of holding it for Node's defaults (60 s, 5 minutes).
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { AtlasError } from '../../errors.ts';

/** How long a client may take to send a request. */
export interface ReadTimeouts {
  /** The request line and headers must arrive within this many ms (default 10000). */
  headerTimeoutMs: number;
  /** Then the body within this many ms more (default 10000): the whole request within the sum. */
  bodyTimeoutMs: number;
}

/** The defaults of {@link ReadTimeouts}: 10 s for the headers, 10 s more for the body. */
export const DEFAULT_READ_TIMEOUTS: ReadTimeouts = { headerTimeoutMs: 10_000, bodyTimeoutMs: 10_000 };

/** A web-standard fetch handler (Hono's `app.fetch`). */
type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

/**
 * A Node HTTP server answering with `fetch`. Node answers `408 Request Timeout` and closes the
 * connection of a request whose headers take longer than `headerTimeoutMs`, or whose headers and
 * body together take longer than `headerTimeoutMs + bodyTimeoutMs` (Node's `headersTimeout` and
 * `requestTimeout`); it checks every quarter of the shorter timeout (at most every second), so a
 * timeout is seen at most that much late. A response being written is never cut by them.
 *
 * @example
 * const server = createNodeServer(app.fetch, { headerTimeoutMs: 10_000, bodyTimeoutMs: 10_000 });
 * server.listen(8787, '127.0.0.1');
 */
export function createNodeServer(fetch: FetchHandler, timeouts: ReadTimeouts = DEFAULT_READ_TIMEOUTS): Server {
  for (const name of ['headerTimeoutMs', 'bodyTimeoutMs'] as const) {
    const value = timeouts[name];
    if (!Number.isInteger(value) || value < 1) throw new AtlasError('usage', `Atlas: createNodeServer ${name} must be a positive whole number of ms, got ${String(value)}; pass e.g. ${name}: 10000.`);
  }
  const checkEveryMs = Math.max(10, Math.min(1000, Math.floor(Math.min(timeouts.headerTimeoutMs, timeouts.bodyTimeoutMs) / 4)));
  return createServer(
    { headersTimeout: timeouts.headerTimeoutMs, requestTimeout: timeouts.headerTimeoutMs + timeouts.bodyTimeoutMs, connectionsCheckingInterval: checkEveryMs },
    getRequestListener(fetch),
  );
}
