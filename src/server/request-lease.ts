// Each request of `atlas serve` reads one version of the index: a `--rebuild` that replaces the
// file while a request runs is seen by the next request, never halfway through this one.
import { isLeasableIndex } from '../index/index-lease.ts';
import type { IndexBackend } from '../index/types.ts';
import { releasingAtEnd } from './limits.ts';

/** A web-standard fetch handler, as Hono's `app.fetch` (the second argument is the server's env). */
type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

/**
 * Wraps `fetch` so that each request runs under a lease of `index` (see IndexLease): its search,
 * its reads and its whole agent run read the version of the index that was current when the
 * request came in. The lease is released when the response is complete: at once for a JSON
 * body, at the last byte (or the cancellation) of an event stream (a streamed ask), and once the
 * headers are sent for a GET event stream (the notification stream an MCP client keeps open,
 * which runs nothing). An index without versions (PostgreSQL, in memory) gets `fetch` as it is.
 *
 * @example
 * const server = createServer(getRequestListener(withRequestLeases(app.fetch, index)));
 */
export function withRequestLeases<F extends FetchHandler>(fetch: F, index: IndexBackend): F {
  if (!isLeasableIndex(index)) return fetch;
  const leased = async (request: Request, env?: unknown): Promise<Response> => {
    const lease = index.lease();
    let response: Response;
    try {
      response = await lease.run(() => fetch(request, env));
    } catch (error) {
      lease.release();
      throw error;
    }
    const streaming = request.method !== 'GET' && response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    if (!streaming || response.body === null) {
      lease.release();
      return response;
    }
    return new Response(releasingAtEnd(response.body, lease.release), response);
  };
  return leased as F;
}
