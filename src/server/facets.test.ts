import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/index.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { collectFacets, createFacetsApp } from './facets.ts';
import type { ServerDeps, ServerEnv } from './types.ts';

let orbit: IndexBackend;
beforeAll(async () => {
  orbit = await createOrbitIndex();
});
afterAll(async () => {
  await orbit.close();
});

/** Orbit with a labelValues that answers from a fixed table and records the filters it was given. */
function withLabelValues(calls: Array<{ name: string; filter?: SearchFilter }>): IndexBackend {
  const table: Record<string, string[]> = { store: ['Baner', 'all', 'Aundh', 'Aundh'], team: [] };
  return Object.assign(Object.create(orbit) as IndexBackend, {
    labelValues: async (name: string, filter?: SearchFilter) => {
      calls.push({ name, ...(filter ? { filter } : {}) });
      return table[name] ?? [];
    },
  });
}

describe('collectFacets', () => {
  it('lists the release lines of the index, or only the version the server fixes', async () => {
    expect(await collectFacets(orbit, {})).toEqual({ versions: ['2.x', '3.x'], labels: {} });
    expect(await collectFacets(orbit, { filter: { version: '3.x' } })).toEqual({ versions: ['3.x'], labels: {} });
  });

  it("asks the backend's labelValues under the server filter and the principal, leaving out all, empty labels and acl", async () => {
    const calls: Array<{ name: string; filter?: SearchFilter }> = [];
    const facets = await collectFacets(withLabelValues(calls), {
      filter: { version: '3.x' },
      principal: { groups: ['staff'] },
      labelNames: ['team', 'store', 'acl'],
    });
    expect(facets).toEqual({ versions: ['3.x'], labels: { store: ['Aundh', 'Baner'] } });
    expect(calls).toEqual([
      { name: 'store', filter: { version: '3.x', principal: { groups: ['staff'] } } },
      { name: 'team', filter: { version: '3.x', principal: { groups: ['staff'] } } },
    ]);
  });

  it('offers only its own values for a label the server fixes', async () => {
    const calls: Array<{ name: string; filter?: SearchFilter }> = [];
    const facets = await collectFacets(withLabelValues(calls), { filter: { labels: { store: ['Baner', 'all'] } } });
    expect(facets).toEqual({ versions: ['2.x', '3.x'], labels: { store: ['Baner'] } });
    expect(calls).toEqual([]);
  });
});

describe('GET /v1/facets', () => {
  it("answers with the facets of the auth middleware's principal", async () => {
    const calls: Array<{ name: string; filter?: SearchFilter }> = [];
    const deps: ServerDeps = { index: withLabelValues(calls), model: createOfflineModel(), modelSpec: 'offline', price: null, now: () => 0 };
    const app = new Hono<ServerEnv>();
    app.use('*', async (c, next) => {
      c.set('principal', { groups: ['admins'] });
      await next();
    });
    app.route('/', createFacetsApp(deps, { labelNames: ['store'] }));
    const response = await app.request('/v1/facets');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ versions: ['2.x', '3.x'], labels: { store: ['Aundh', 'Baner'] } });
    expect(calls).toEqual([{ name: 'store', filter: { principal: { groups: ['admins'] } } }]);
  });
});
