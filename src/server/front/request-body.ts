// The body of a request read whole before the request takes a concurrency slot: a client that
// sends half a body holds only its own connection (Node's read timeout answers it 408), never a
// slot other clients wait for.
import type { Context } from 'hono';
import { ClientClosedError } from '../http.ts';

/**
 * Reads the body of `c.req.raw` to its end and puts it back as bytes, so the handlers after
 * read it as before (`c.req.json()`, `c.req.raw` for a mounted handler). A request without a body
 * is left as it is. The body limit's error (hono's BodyLimitError, turned into a 413 by the body
 * limit middleware) is thrown as it is; a body that stops short (the client closed the
 * connection, or the server's read timeout closed it) is a {@link ClientClosedError}.
 *
 * @example
 * app.use('/v1/*', async (c, next) => { await readWholeBody(c); await next(); });
 */
export async function readWholeBody(c: Context): Promise<void> {
  const request = c.req.raw;
  if (request.body === null) return;
  let bytes: ArrayBuffer;
  try {
    bytes = await request.arrayBuffer();
  } catch (error) {
    if (error instanceof Error && error.name === 'BodyLimitError') throw error;
    throw new ClientClosedError(`the request body did not arrive whole (the client closed the connection, or it took longer than the read timeout): ${(error as Error).message ?? String(error)}`);
  }
  c.req.raw = new Request(request, { body: bytes });
}
