// The SSE shape of every streamed run (`/v1/ask/stream`, `/v1/conversations/:id/messages/stream`):
// one `event: <type>` per run event, a `: keep-alive` comment while quiet, then `event: run` with
// the final JSON (or `event: error`); the client going away aborts the run.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RunEvent } from '../agent/events.ts';
import { errorReply } from './http.ts';

/** How often a stream with no event sends an SSE comment (`: keep-alive`), so proxies keep it open. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** What {@link streamRun} needs: how to run, and how the stream behaves. */
export interface StreamRunOptions {
  /**
   * Runs with `onEvent` (each event goes out as it comes) and `abortSignal` (fires when the client
   * closes the stream or the connection), and returns the JSON sent as the last `event: run`.
   * A throw becomes a last `event: error` with the error body (`errorReply`).
   */
  run: (onEvent: (event: RunEvent) => void, abortSignal: AbortSignal) => Promise<unknown>;
  /** A quiet stream gets a `: keep-alive` comment this often (0: never). */
  keepAliveMs: number;
  /** The request, as the server log names it (`POST /v1/ask/stream`). */
  subject: string;
  /** The server log (unexpected failures with their stack). */
  log: (line: string) => void;
}

/**
 * The `text/event-stream` response of one run: `event: <type>` / `data: <event JSON>` per run
 * event in order, then `event: run` with what `options.run` returned, or `event: error` with
 * `{ error: { code, message } }` if it threw. Every `keepAliveMs` with no event since the last
 * tick, a `: keep-alive` comment line (SSE clients ignore it). Validate the request before
 * calling this: once the stream starts, its status is 200.
 *
 * @example
 * return streamRun(c, {
 *   run: (onEvent, abortSignal) => routedAsk(question, { ...options, onEvent, abortSignal }),
 *   keepAliveMs: DEFAULT_KEEP_ALIVE_MS,
 *   subject: 'POST /v1/ask/stream',
 *   log: console.error,
 * });
 */
export function streamRun(c: Context, options: StreamRunOptions): Response {
  return streamSSE(c, async (stream) => {
    const aborter = new AbortController();
    stream.onAbort(() => aborter.abort(new Error('the client closed the stream')));
    c.req.raw.signal.addEventListener('abort', () => aborter.abort(new Error('the client closed the connection')), { once: true });
    let writes = Promise.resolve();
    let quiet = false;
    const onEvent = (event: RunEvent) => {
      quiet = false;
      writes = writes.then(() => stream.writeSSE({ event: event.type, data: JSON.stringify(event) }));
    };
    // Every keepAliveMs, a comment if no event went out since the last tick.
    const keepAlive =
      options.keepAliveMs > 0
        ? setInterval(() => {
            if (quiet) writes = writes.then(() => stream.write(': keep-alive\n\n').then(() => {}));
            quiet = true;
          }, options.keepAliveMs)
        : undefined;
    try {
      const result = await options.run(onEvent, aborter.signal);
      await writes;
      await stream.writeSSE({ event: 'run', data: JSON.stringify(result) });
    } catch (error) {
      await writes;
      const reply = errorReply(error, options.subject, options.log);
      await stream.writeSSE({ event: 'error', data: JSON.stringify(reply.body) });
    } finally {
      clearInterval(keepAlive);
    }
  });
}
