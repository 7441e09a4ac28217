// GET /v1/facets: the release lines and label values a principal may filter by, for the web
// page's selectors (and any client that wants to offer them).
import { Hono } from 'hono';
import { ACL_LABEL, ALL_VALUE } from '../index/filter.ts';
import type { IndexBackend, Principal, SearchFilter } from '../index/types.ts';
import type { ServerDeps, ServerEnv } from './types.ts';

/** What a request may narrow its filter to. */
export interface Facets {
  /** Release lines (sorted), or only the server's own when `atlas serve --version` fixes one. */
  versions: string[];
  /** Per label name, the values found on pages the principal may read (sorted, `all` left out), or the server's own when it fixes the label. */
  labels: Record<string, string[]>;
}

/**
 * A backend that can list the values of a label on the pages a filter keeps. The IndexBackend
 * method of that name is used when the backend has it (it is optional so that backends without
 * it still serve the other facets).
 */
export type LabelValuesSource = (name: string, filter?: SearchFilter) => Promise<string[]>;

/** Options of {@link createFacetsApp}. */
export interface FacetsOptions {
  /**
   * The labels offered as selectors (e.g. the config's model labels). Default: the labels the
   * server's filter fixes. `acl` is never offered: access comes from the token.
   */
  labelNames?: string[];
}

/**
 * The facets a principal sees. Versions come from the index's release lines (names of release
 * lines, never page content); label values from the backend's `labelValues` under the server's
 * filter and the principal, so a restricted page's label never shows; a label the server fixes
 * offers only its own values.
 *
 * @example
 * await collectFacets(index, { filter: { version: '3.x' }, principal: { groups: ['staff'] }, labelNames: ['store'] });
 * // { versions: ['3.x'], labels: { store: ['Aundh', 'Baner'] } }
 */
export async function collectFacets(
  index: IndexBackend,
  options: { filter?: SearchFilter; principal?: Principal; labelNames?: string[] },
): Promise<Facets> {
  const fixedVersion = options.filter?.version;
  const versions = fixedVersion !== undefined ? [fixedVersion] : ((await index.releaseLines?.()) ?? []);
  const fixed = options.filter?.labels ?? {};
  const names = [...new Set(options.labelNames ?? Object.keys(fixed))].filter((name) => name !== ACL_LABEL).sort();
  const source = labelValuesOf(index);
  const labels: Record<string, string[]> = {};
  for (const name of names) {
    const own = fixed[name];
    const values =
      own !== undefined
        ? (Array.isArray(own) ? own : [own])
        : source === undefined
          ? []
          : await source(name, { ...options.filter, ...(options.principal ? { principal: options.principal } : {}) });
    const offered = [...new Set(values)].filter((value) => value !== ALL_VALUE).sort();
    if (offered.length > 0) labels[name] = offered;
  }
  return { versions, labels };
}

/**
 * `GET /v1/facets` as a Hono sub-app, mounted at the root of the server app. The principal is
 * the auth middleware's (`c.get('principal')`).
 *
 * @example
 * app.route('/', createFacetsApp(deps, { labelNames: ['store'] }));
 * // GET /v1/facets -> { versions: ['2.x', '3.x'], labels: { store: ['Aundh', 'Baner'] } }
 */
export function createFacetsApp(deps: ServerDeps, options: FacetsOptions = {}): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.get('/v1/facets', async (c) => {
    const principal = c.get('principal');
    const facets = await collectFacets(deps.index, {
      ...(deps.filter ? { filter: deps.filter } : {}),
      ...(principal ? { principal } : {}),
      ...(options.labelNames ? { labelNames: options.labelNames } : {}),
    });
    return c.json(facets);
  });
  return app;
}

/** The backend's `labelValues`, when it has one (the method is newer than the IndexBackend interface of some branches). */
function labelValuesOf(index: IndexBackend): LabelValuesSource | undefined {
  const candidate = (index as IndexBackend & { labelValues?: LabelValuesSource }).labelValues;
  return typeof candidate === 'function' ? candidate.bind(index) : undefined;
}
