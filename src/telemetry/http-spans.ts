// A server span per HTTP request, around a web-standard fetch handler (atlas serve's app), as
// the parent of everything the request runs. Loaded only when tracing is configured.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type TextMapGetter, type Tracer } from '@opentelemetry/api';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';
import { failSpan } from './tracing.ts';

/** A web-standard fetch handler, as Hono's `app.fetch` (the second argument is the server's env). */
export type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

const headerGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/**
 * Wraps `fetch` so that each request runs in a server span, `METHOD /route` (the route template
 * of `routes` the path matches, e.g. `/v1/chunks/:chunkId`; `METHOD` alone when none does), with
 * the stable HTTP attributes, a parent from the request's `traceparent` header, and made active
 * for the handler so the spans it starts (an ask's `atlas.run`) are its children. The span ends
 * with the response, or at the last byte (or the cancellation) of a streamed body (`POST`
 * event streams: a streamed ask); a 5xx is an error span.
 *
 * @example
 * const fetch = withRequestSpans(app.fetch, { tracer: tracing.tracer, routes: ['/v1/ask', '/v1/chunks/:chunkId{.+}'] });
 */
export function withRequestSpans(fetch: FetchHandler, options: { tracer: Tracer; routes: string[] }): FetchHandler {
  const routeOf = routeMatcher(options.routes);
  const traced = async (request: Request, env?: unknown): Promise<Response> => {
    const url = new URL(request.url);
    const route = routeOf(url.pathname);
    const parent = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
    const span = options.tracer.startSpan(route === undefined ? request.method : `${request.method} ${route}`, { kind: SpanKind.SERVER, attributes: requestAttributes(request, url, route, env) }, parent);
    let response: Response;
    try {
      response = await context.with(trace.setSpan(parent, span), () => fetch(request, env));
    } catch (error) {
      failSpan(span, error);
      span.end();
      throw error;
    }
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.status);
    if (response.status >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(response.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    const streaming = request.method !== 'GET' && response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    if (!streaming || response.body === null) {
      span.end();
      return response;
    }
    return new Response(endingAtLastByte(response.body, span), response);
  };
  return traced;
}

function requestAttributes(request: Request, url: URL, route: string | undefined, env: unknown): Attributes {
  const client = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  const userAgent = request.headers.get('user-agent');
  return {
    [ATTR_HTTP_REQUEST_METHOD]: request.method,
    [ATTR_URL_PATH]: url.pathname,
    [ATTR_URL_SCHEME]: url.protocol.replace(/:$/, ''),
    [ATTR_SERVER_ADDRESS]: url.hostname,
    ...(url.port === '' ? {} : { [ATTR_SERVER_PORT]: Number(url.port) }),
    ...(route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route }),
    ...(client === undefined ? {} : { [ATTR_CLIENT_ADDRESS]: client }),
    ...(userAgent === null ? {} : { [ATTR_USER_AGENT_ORIGINAL]: userAgent }),
  };
}

/**
 * The route template a path matches: `:name` is one path segment, `:name{...}` (Hono's pattern
 * syntax) one or more, `/*` anything below; exact templates are tried before those ending in `*`.
 */
function routeMatcher(routes: string[]): (path: string) => string | undefined {
  const ordered = [...new Set(routes)].sort((a, b) => Number(a.endsWith('*')) - Number(b.endsWith('*')));
  const compiled = ordered.map((route) => {
    const source = route
      .split('/')
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? (part.includes('{') ? '.+' : '[^/]+') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return { template: route.replace(/\{[^}]*\}/g, ''), pattern: new RegExp(`^${source.replace(/\/\.\*$/, '(?:/.*)?')}$`) };
  });
  return (path) => compiled.find(({ pattern }) => pattern.test(path))?.template;
}

/** `body`, ending `span` after its last byte, or when the client cancels it. */
function endingAtLastByte(body: ReadableStream<Uint8Array>, span: Span): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          span.end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        failSpan(span, error);
        span.end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      span.setAttribute('atlas.http.cancelled', true);
      span.end();
      await reader.cancel(reason);
    },
  });
}
