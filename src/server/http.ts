// The error shape of every route and the JSON body reader: `{ error: { code, message } }` with
// the right status, never a stack; bodies validated with zod, each problem naming its field.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { AtlasError } from '../errors.ts';
import { failureText } from '../stack-trace.ts';

/** The body of every error response. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * An error a route answers with: the HTTP status, a stable machine code and a message that names
 * the field, the value and the fix. Thrown by handlers, turned into JSON by the app's error handler.
 *
 * @example
 * throw new ApiError(404, 'not-found', 'no chunk "leases#9" (unknown, or outside your access).');
 */
export class ApiError extends AtlasError {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly apiCode: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super('usage', message);
    this.name = 'ApiError';
  }
}

/**
 * The client went away (or the server's read timeout closed its connection) before its request or
 * its answer was whole: nothing to fix on the server, so the log gets one info line, no stack
 * (front/disconnect-log.ts).
 *
 * @example
 * throw new ClientClosedError('the request body did not arrive whole');
 */
export class ClientClosedError extends ApiError {
  constructor(message: string) {
    super(408, 'client-closed', `Atlas: ${message}`, { connection: 'close' });
    this.name = 'ClientClosedError';
  }
}

/**
 * The JSON error body.
 *
 * @example
 * errorBody('unauthorized', 'a bearer token is required'); // { error: { code: 'unauthorized', message: 'a bearer token is required' } }
 */
export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

/** What an error becomes on the wire. */
export interface ErrorReply {
  status: ContentfulStatusCode;
  body: ErrorBody;
  headers: Record<string, string>;
}

/**
 * What any error a handler threw is answered with: an {@link ApiError} as it says; an AtlasError
 * by its code (the index unavailable is 503, a bad option 400, anything else 500); an unknown
 * error is a 500 whose message says nothing of its internals (`log` receives the stack).
 * `subject` (`POST /v1/ask`) names the request in the log.
 *
 * @example
 * errorReply(new ApiError(404, 'not-found', 'no chunk "x#0"'), 'GET /v1/chunks/x#0', log).status; // 404
 */
export function errorReply(error: unknown, subject: string, log: (line: string) => void): ErrorReply {
  if (error instanceof ApiError) return { status: error.status, body: errorBody(error.apiCode, error.message), headers: error.headers };
  if (error instanceof AtlasError) {
    const status = error.code.startsWith('index-') ? 503 : error.code === 'usage' ? 400 : 500;
    if (status === 500) log(`atlas serve: ${subject}: ${error.message}`);
    return { status, body: errorBody(error.code, error.message), headers: {} };
  }
  log(`atlas serve: ${subject}: unexpected failure: ${failureText(error)}`);
  return { status: 500, body: errorBody('internal', 'Atlas: unexpected server failure; the server log has the details. Please report it with the request you sent.'), headers: {} };
}

/**
 * {@link errorReply} as the response of `c` (the app's error handler).
 *
 * @example
 * app.onError((error, c) => errorResponse(c, error, log));
 */
export function errorResponse(c: Context, error: unknown, log: (line: string) => void): Response {
  const reply = errorReply(error, `${c.req.method} ${c.req.path}`, log);
  for (const [name, value] of Object.entries(reply.headers)) c.header(name, value);
  return c.json(reply.body, reply.status);
}

/**
 * Reads and validates a JSON body. An empty body, malformed JSON and every schema problem are
 * 400s; the message names the field (`question`, `labels.store`) and what to send instead.
 *
 * @example
 * const body = await readJsonBody(c, askRequestSchema, '{"question": "How do I retry a job?"}');
 */
export async function readJsonBody<T extends z.ZodType>(c: Context, schema: T, example: string): Promise<z.infer<T>> {
  const text = await c.req.text();
  if (text.trim() === '') throw new ApiError(400, 'invalid-request', `Atlas: the request body is empty; send JSON, e.g. ${example}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'invalid-json', `Atlas: the request body is not valid JSON (${(error as Error).message}); send e.g. ${example}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => (issue.path.length === 0 && issue.code === 'unrecognized_keys' ? issue.message : `${fieldPath(issue.path) || 'body'}: ${issue.message}`));
    throw new ApiError(400, 'invalid-request', `Atlas: invalid request: ${problems.join('; ')}. Send e.g. ${example}`);
  }
  return parsed.data;
}

/**
 * A zod issue path as a field name: `labels.store`, `messages[2].content`.
 *
 * @example
 * fieldPath(['labels', 'store']); // 'labels.store'
 */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part, position) => (typeof part === 'number' ? `[${part}]` : `${position === 0 ? '' : '.'}${String(part)}`)).join('');
}
