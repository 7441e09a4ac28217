// The `atlas serve` app: a Hono fetch handler over the library. Health is open; /v1/* (and any
// handler mounted behind it, like /mcp) goes through CORS, auth, the body limit and the
// concurrency limits, in that order.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { createAskRoutes } from './ask.ts';
import { createAuthMiddleware, requestUser, type AuthConfig } from './auth.ts';
import { createDisconnectLog } from './front/disconnect-log.ts';
import { forwardedClientAddress, peerAddress, type TrustedProxies } from './front/client-address.ts';
import { createDocsRoutes } from './docs.ts';
import { createFacetsApp } from './facets.ts';
import { errorBody, errorResponse } from './http.ts';
import { createConcurrencyLimiter, createLimitMiddleware, DEFAULT_SERVER_LIMITS, type ConcurrencyLimiter, type ServerLimits } from './limits.ts';
import { createOpenAiApp } from './openai.ts';
import { createPageApp } from './page.ts';
import { createSearchRoutes } from './search.ts';
import type { ServerDeps, ServerEnv } from './types.ts';
import type { Principal } from '../index/types.ts';

/** How the HTTP shell is configured (the flags of `atlas serve` that are not ask options). */
export interface AppOptions {
  /** Accepted bearer tokens; absent or empty: no auth (every request anonymous: public pages only). */
  auth?: AuthConfig;
  /** Defaults: {@link DEFAULT_SERVER_LIMITS}. */
  limits?: Partial<ServerLimits>;
  /** Origins allowed by CORS (`--cors ORIGIN`); absent: no CORS headers, browsers refuse other origins. */
  corsOrigins?: string[];
  /** More route modules (conversations, chat completions), mounted at `/` behind the same middleware as /v1/*. */
  routes?: Array<Hono<ServerEnv>>;
  /**
   * Web-standard handlers mounted at a path (and below it) behind auth and limits, given the
   * request's principal from its token, its user (the token's name) and its client (as per-client
   * limits count it: `token:<name>`, else `address:<remote address>`), e.g. `{ '/mcp': mcpHandler }`.
   */
  mounts?: Record<string, (request: Request, context: { principal: Principal | undefined; user?: string; client: string }) => Response | Promise<Response>>;
  /** The concurrency limiter (default: one made from `limits`); `atlas serve` keeps it to wait for requests in flight on shutdown. */
  limiter?: ConcurrencyLimiter;
  /** A quiet event stream gets a `: keep-alive` comment this often (default 15000 ms; 0: never). */
  keepAliveMs?: number;
  /** The remote address of a request, for per-client limits without a token (default: Node's socket address, else "unknown"). */
  remoteAddress?: (c: Context<ServerEnv>) => string;
  /** Proxies whose X-Forwarded-For names the client (`--trust-proxy`, client-address.ts); ignored when `remoteAddress` is given. */
  trustProxy?: TrustedProxies;
}

/**
 * Creates the app: `GET /healthz`, `POST /v1/ask`, `POST /v1/ask/stream`, `GET /v1/search`,
 * `GET /v1/chunks/:chunkId`, `GET /v1/docs/:docId`, plus `options.routes` and `options.mounts`. Every error is
 * `{ error: { code, message } }` with its status (an unknown route is a 404 of that shape).
 * Serve it with `@hono/node-server` (`serve({ fetch: app.fetch })`) or test it with `app.request`.
 *
 * @example
 * const app = createApp({ index, model: createOfflineModel(), modelSpec: 'offline', price: null, now: () => performance.now() });
 * const response = await app.request('/v1/ask', { method: 'POST', body: JSON.stringify({ question: 'What is ORB-1202?' }) });
 */
export function createApp(deps: ServerDeps, options: AppOptions = {}): Hono<ServerEnv> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const log = deps.log ?? (() => {});
  const app = new Hono<ServerEnv>();
  // `/mcp/*` matches `/mcp` too: one pattern per prefix, so no request takes two slots.
  const guarded = ['/v1/*', ...Object.keys(options.mounts ?? {}).map((path) => `${path.replace(/\/$/, '')}/*`)];
  const guard: Array<MiddlewareHandler<ServerEnv>> = [
    createDisconnectLog(log),
    ...(options.corsOrigins && options.corsOrigins.length > 0
      ? [cors({ origin: options.corsOrigins, allowHeaders: ['Authorization', 'Content-Type'], allowMethods: ['GET', 'POST', 'OPTIONS'], exposeHeaders: ['Retry-After'], maxAge: 600 })]
      : []),
    createAuthMiddleware(options.auth, options.remoteAddress ?? (options.trustProxy ? forwardedClientAddress(options.trustProxy) : peerAddress)),
    bodyLimit({
      maxSize: limits.maxBodyBytes,
      onError: (c) => c.json(errorBody('body-too-large', `Atlas: the request body is over ${limits.maxBodyBytes} bytes, the server's limit; send a shorter body.`), 413),
    }),
    createLimitMiddleware(options.limiter ?? createConcurrencyLimiter(limits, deps.now)),
  ];
  for (const path of guarded) app.use(path, ...guard);

  app.get('/healthz', async (c) => {
    const [stats, indexVersion] = await Promise.all([deps.index.stats(), deps.index.indexVersion()]);
    return c.json({ ok: true, docs: stats.docs, chunks: stats.chunks, indexVersion });
  });
  app.route('/', createAskRoutes(deps, options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }));
  app.route('/', createSearchRoutes(deps));
  app.route('/', createDocsRoutes(deps));
  for (const routes of options.routes ?? []) app.route('/', routes);
  // Facets, chat completions and the page, after options.routes (a test may mount its own in their place).
  const labelNames = (deps.modelLabels ?? []).map((label) => label.name);
  for (const routes of [createFacetsApp(deps, labelNames.length > 0 ? { labelNames } : {}), createOpenAiApp(deps), createPageApp()]) app.route('/', routes);
  for (const [path, handler] of Object.entries(options.mounts ?? {})) {
    const prefix = path.replace(/\/$/, '');
    const answer = (c: Context<ServerEnv>) => handler(c.req.raw, { principal: c.get('principal'), ...requestUser(c), client: c.get('client') });
    app.all(prefix, answer);
    app.all(`${prefix}/*`, answer);
  }

  app.notFound((c) => c.json(errorBody('not-found', `Atlas: no route ${c.req.method} ${c.req.path}. The API: GET /healthz, POST /v1/ask, POST /v1/ask/stream, GET /v1/search?q=, GET /v1/chunks/:chunkId, GET /v1/docs/:docId, /v1/conversations, POST /v1/chat/completions, GET /v1/models, GET /v1/facets, /mcp, and the page at / (docs/server.md).`), 404));
  app.onError((error, c) => errorResponse(c, error, log));
  return app;
}
