// A client that goes away is part of serving, not a failure: one info line in the server log,
// never a stack.
import type { MiddlewareHandler } from 'hono';
import { ClientClosedError } from '../http.ts';

/**
 * Middleware that logs one info line when the client of a request closes its connection before
 * the response is complete (its request's abort signal fires), or its body stops short (a
 * {@link ClientClosedError}, e.g. at the read timeout): `atlas serve: info: POST /v1/ask: ...`.
 * A GET event stream (the notification stream an MCP client keeps open) is closed by its client
 * as a matter of course, and is not logged.
 *
 * @example
 * app.use('/v1/*', createDisconnectLog((line) => process.stderr.write(`${line}\n`)));
 */
export function createDisconnectLog(log: (line: string) => void): MiddlewareHandler {
  return async (c, next) => {
    const subject = `${c.req.method} ${c.req.path}`;
    let logged = false;
    let listening = false;
    const note = (why: string) => {
      if (logged || listening) return;
      logged = true;
      log(`atlas serve: info: ${subject}: ${why}`);
    };
    c.req.raw.signal.addEventListener('abort', () => note('the connection closed before the answer was complete (the client went away, or the server stopped).'), { once: true });
    await next();
    if (c.error instanceof ClientClosedError) note(c.error.message);
    listening = c.req.method === 'GET' && (c.res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  };
}
