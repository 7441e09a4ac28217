// GET /v1/search and GET /v1/chunks/:chunkId: the index read as `atlas search` reads it, through
// the server's filter narrowed by the query string and the token's principal.
import { Hono } from 'hono';
import { z } from 'zod';
import { hitJson } from '../cli/commands/search-command.ts';
import { releaseLineNotes } from '../cli/options/release-lines.ts';
import { ApiError, fieldPath } from './http.ts';
import { narrowFilter, refuseAccessParameters, requestedFilterFields, type RequestedFilter } from './request-filter.ts';
import type { ServerEnv, ServerDeps } from './types.ts';

/** Results of a search when `k` is not given (as `atlas search`), and the most one may ask. */
export const DEFAULT_SEARCH_K = 5;
export const MAX_SEARCH_K = 50;

const searchQuerySchema = z.strictObject(
  {
    q: z.string({ error: 'is required: the text to search for, e.g. ?q=lease+timeout' }).trim().min(1, { error: 'must not be empty, e.g. ?q=lease+timeout' }),
    k: z
      .string()
      .regex(/^\d+$/, { error: `must be a whole number of results from 1 to ${MAX_SEARCH_K}, e.g. k=5` })
      .transform(Number)
      .refine((k) => k >= 1 && k <= MAX_SEARCH_K, { error: `must be from 1 to ${MAX_SEARCH_K}, e.g. k=5` })
      .optional(),
    version: requestedFilterFields.version,
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown parameter ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; a search takes q, k, version and label` : 'must be a query string') },
);

const chunkQuerySchema = z.strictObject(
  { version: requestedFilterFields.version },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown parameter ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; a chunk read takes version` : 'must be a query string') },
);

/**
 * The search routes: `GET /v1/search?q=&k=&version=&label=name=value` (label repeatable,
 * `name=a,b` for several values) answers `{ query, hits, notes }` like `atlas search --json`;
 * `GET /v1/chunks/:chunkId[?version=]` answers `{ chunk }`, and a chunk the filter or the principal hides is
 * a 404 exactly like an unknown id. Both refuse a parameter they do not take with a 400, and a
 * parameter claiming access groups (`?groups=admins`) with the same 400 on both.
 *
 * @example
 * app.route('/', createSearchRoutes(deps));
 */
export function createSearchRoutes(deps: ServerDeps): Hono<ServerEnv> {
  const routes = new Hono<ServerEnv>();

  routes.get('/v1/search', async (c) => {
    const { label, ...single } = c.req.queries();
    refuseAccessParameters(Object.keys(single));
    const query = parseQuery('search', searchQuerySchema, Object.fromEntries(Object.entries(single).map(([name, values]) => [name, values.at(-1)])));
    const requested: RequestedFilter = { ...(query.version ? { version: query.version } : {}), ...(label ? { labels: parseLabels(label) } : {}) };
    const { filter, notes } = narrowFilter(deps.filter, requested, c.get('principal'));
    if (filter?.version !== undefined && filter.version !== 'all') notes.push(...(await releaseLineNotes(deps.index, filter.version)));
    const hits = await deps.index.search(query.q, { k: query.k ?? DEFAULT_SEARCH_K, ...(filter ? { filter } : {}) });
    return c.json({ query: query.q, hits: hits.map(hitJson), notes });
  });

  // {.+}: a doc id of a nested page holds slashes (`guides/setup#1`), encoded or not.
  routes.get('/v1/chunks/:chunkId{.+}', async (c) => {
    const chunkId = c.req.param('chunkId');
    // Like a search, a chunk read refuses parameters it does not take, a claim of groups first.
    const parameters = c.req.queries();
    refuseAccessParameters(Object.keys(parameters));
    const { version } = parseQuery('chunk read', chunkQuerySchema, Object.fromEntries(Object.entries(parameters).map(([name, values]) => [name, values.at(-1)])));
    const { filter } = narrowFilter(deps.filter, version ? { version } : {}, c.get('principal'));
    const chunk = await deps.index.getChunk(chunkId, filter);
    // Unknown and hidden are the same answer: the response must not tell that a chunk exists.
    if (chunk === undefined) throw new ApiError(404, 'not-found', `Atlas: no chunk ${JSON.stringify(chunkId)} (the id is unknown or outside what this request may read). Chunk ids look like "leases#1": take them from /v1/search hits.`);
    return c.json({ chunk });
  });

  return routes;
}

function parseQuery<T extends z.ZodType>(what: 'search' | 'chunk read', schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${fieldPath(issue.path) || 'query'}: ${issue.message}`);
  throw new ApiError(400, 'invalid-request', `Atlas: invalid ${what}: ${problems.join('; ')}.`);
}

/** `label=store=Aundh,Baner` parameters (repeatable) as label values, like `atlas search --label`. */
function parseLabels(parameters: string[]): Record<string, string[]> {
  const labels: Record<string, string[]> = {};
  for (const parameter of parameters) {
    const at = parameter.indexOf('=');
    const name = at < 0 ? '' : parameter.slice(0, at).trim();
    const values = at < 0 ? [] : parameter.slice(at + 1).split(',').map((value) => value.trim());
    if (name === '' || values.some((value) => value === '')) {
      throw new ApiError(400, 'invalid-request', `Atlas: invalid search: label: must be name=value or name=value1,value2, got ${JSON.stringify(parameter)} (e.g. label=store%3DAundh).`);
    }
    labels[name] = [...new Set([...(labels[name] ?? []), ...values])];
  }
  return labels;
}
