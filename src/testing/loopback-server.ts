import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP request the loopback server received, in arrival order. */
export interface RecordedRequest {
  method: string;
  /** Path and query string, e.g. `/v1/messages`. */
  path: string;
  /** Request headers as Node reports them (lower-case names). */
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
  body: unknown;
  /** The body as received. */
  rawBody: string;
  /** True when no scripted response was left for this request (it got a 500). */
  unexpected: boolean;
}

/** Extra response headers; `content-type` and `content-length` are set for you. */
export type ResponseHeaders = Record<string, string>;

/** One server-sent event: `data` is JSON-encoded unless it is a string (e.g. `[DONE]`). */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/**
 * What the server does with one request. Build these with {@link jsonResponse}, {@link sseResponse},
 * {@link rateLimitedResponse}, {@link serverErrorResponse}, {@link hangResponse} and
 * {@link truncatedResponse}.
 */
export type ScriptedResponse =
  | { type: 'json'; status: number; headers: ResponseHeaders; body: unknown }
  | { type: 'text'; status: number; headers: ResponseHeaders; body: string }
  | { type: 'sse'; status: number; headers: ResponseHeaders; events: Array<SseEvent | string> }
  | { type: 'hang' }
  | { type: 'truncated'; status: number; headers: ResponseHeaders; body: unknown };

/** Computes the response to a request; `index` counts requests from 0. */
export type LoopbackHandler = (request: RecordedRequest, index: number) => ScriptedResponse | Promise<ScriptedResponse>;

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Every request received so far, in order (a copy). */
  requests(): RecordedRequest[];
  /** The requests that found no scripted response (or made the handler throw). */
  unexpectedRequests(): RecordedRequest[];
  /**
   * Throws when a request was unexpected or, for a script, when scripted responses were never used.
   * Call it at the end of a test so a surplus or missing call fails loudly.
   */
  assertScriptConsumed(): void;
  /** Stops listening and drops open connections (including hanging ones). */
  close(): Promise<void>;
}

/**
 * A 200 (or `status`) JSON response.
 *
 * @example
 * jsonResponse({ id: 'resp_1', output: [] })
 */
export function jsonResponse(body: unknown, init: { status?: number; headers?: ResponseHeaders } = {}): ScriptedResponse {
  return { type: 'json', status: init.status ?? 200, headers: init.headers ?? {}, body };
}

/**
 * A `text/event-stream` response, one `data:` line per event.
 *
 * @example
 * sseResponse([{ event: 'message_stop', data: { type: 'message_stop' } }])
 */
export function sseResponse(events: Array<SseEvent | string>, init: { status?: number; headers?: ResponseHeaders } = {}): ScriptedResponse {
  return { type: 'sse', status: init.status ?? 200, headers: init.headers ?? {}, events };
}

/**
 * A 429 with `retry-after-ms` and `retry-after` headers (default 0: the client retries at once).
 *
 * @example
 * startLoopbackServer([rateLimitedResponse(), jsonResponse(ok)])
 */
export function rateLimitedResponse(init: { retryAfterMs?: number; body?: unknown } = {}): ScriptedResponse {
  const retryAfterMs = init.retryAfterMs ?? 0;
  return jsonResponse(init.body ?? { error: { message: 'Rate limit reached (loopback fault).', type: 'rate_limit_error' } }, {
    status: 429,
    headers: { 'retry-after-ms': String(retryAfterMs), 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
  });
}

/**
 * A 500 (or another 5xx). It carries `retry-after-ms: 0` so AI SDK retries do not sleep for
 * their default 2 s backoff; pass `retryAfterMs` to change that.
 *
 * @example
 * serverErrorResponse({ status: 503 })
 */
export function serverErrorResponse(init: { status?: number; retryAfterMs?: number; body?: unknown } = {}): ScriptedResponse {
  return jsonResponse(init.body ?? { error: { message: 'Internal server error (loopback fault).', type: 'server_error' } }, {
    status: init.status ?? 500,
    headers: { 'retry-after-ms': String(init.retryAfterMs ?? 0) },
  });
}

/** Never answers: the request stays open until the client aborts or the server closes. */
export function hangResponse(): ScriptedResponse {
  return { type: 'hang' };
}

/**
 * Announces the full JSON body (status 200, full `content-length`), writes its first half, then
 * destroys the socket. The AI SDK treats the socket error as retryable; the response carries
 * `retry-after-ms: 0` (override with `headers`) so that retry does not sleep 2 s.
 *
 * @example
 * startLoopbackServer([truncatedResponse(answer), jsonResponse(answer)])
 */
export function truncatedResponse(body: unknown, init: { status?: number; headers?: ResponseHeaders } = {}): ScriptedResponse {
  return { type: 'truncated', status: init.status ?? 200, headers: { 'retry-after-ms': '0', ...init.headers }, body };
}

/**
 * Starts an HTTP server on `127.0.0.1` at a free port that records every request and answers
 * with the scripted responses in order (or with what `handler` returns). A request beyond the
 * script gets a 500 naming the problem and is recorded as unexpected.
 *
 * @example
 * const server = await startLoopbackServer([jsonResponse({ ok: true })]);
 * await fetch(`${server.url}/ping`, { method: 'POST', body: '{}' });
 * server.assertScriptConsumed();
 * await server.close();
 */
export async function startLoopbackServer(script: ScriptedResponse[] | LoopbackHandler): Promise<LoopbackServer> {
  const recorded: RecordedRequest[] = [];
  const handler: LoopbackHandler = typeof script === 'function' ? script : scriptHandler(script);

  const server = createServer((request, response) => {
    void respond(request, response);
  });

  async function respond(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    const entry: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: parseJson(rawBody),
      rawBody,
      unexpected: false,
    };
    const index = recorded.length;
    recorded.push(entry);
    let scripted: ScriptedResponse;
    try {
      scripted = await handler(entry, index);
    } catch (error) {
      entry.unexpected = true;
      const message = error instanceof Error ? error.message : String(error);
      scripted = jsonResponse({ error: { message, type: 'loopback_unexpected_request' } }, {
        status: 500,
        headers: { 'retry-after-ms': '0' },
      });
    }
    writeScripted(response, scripted);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    requests: () => [...recorded],
    unexpectedRequests: () => recorded.filter((entry) => entry.unexpected),
    assertScriptConsumed() {
      const unexpected = recorded.filter((entry) => entry.unexpected);
      if (unexpected.length > 0) {
        const list = unexpected.map((entry) => `${entry.method} ${entry.path}`).join(', ');
        throw new Error(`loopback server: ${unexpected.length} unexpected request(s): ${list}`);
      }
      if (Array.isArray(script) && recorded.length < script.length) {
        throw new Error(
          `loopback server: ${script.length - recorded.length} scripted response(s) never requested (got ${recorded.length} of ${script.length} requests)`,
        );
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function scriptHandler(script: ScriptedResponse[]): LoopbackHandler {
  return (request, index) => {
    const scripted = script[index];
    if (scripted === undefined) {
      throw new Error(
        `loopback server: unexpected request #${index + 1} ${request.method} ${request.path}; the script has only ${script.length} response(s)`,
      );
    }
    return scripted;
  };
}

function writeScripted(response: ServerResponse, scripted: ScriptedResponse): void {
  switch (scripted.type) {
    case 'hang':
      return;
    case 'json':
    case 'text': {
      const text = scripted.type === 'json' ? JSON.stringify(scripted.body) : scripted.body;
      const contentType = scripted.type === 'json' ? 'application/json' : 'text/plain; charset=utf-8';
      response.writeHead(scripted.status, {
        'content-type': contentType,
        'content-length': String(Buffer.byteLength(text)),
        ...scripted.headers,
      });
      response.end(text);
      return;
    }
    case 'sse': {
      response.writeHead(scripted.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...scripted.headers });
      for (const event of scripted.events) response.write(formatSseEvent(event));
      response.end();
      return;
    }
    case 'truncated': {
      const text = JSON.stringify(scripted.body);
      response.writeHead(scripted.status, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        ...scripted.headers,
      });
      response.write(text.slice(0, Math.floor(text.length / 2)), () => response.socket?.destroy());
      return;
    }
  }
}

function formatSseEvent(event: SseEvent | string): string {
  if (typeof event === 'string') return `data: ${event}\n\n`;
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${data}\n\n`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
