import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitJson } from '../cli/commands/search-command.ts';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createApp } from './app.ts';
import { testDeps } from './test-server.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

/** The one answer to a query string that claims access groups, on every read route. */
const ACCESS_PARAMETER = (name: string) =>
  `Atlas: ${name}: access is not a query parameter; the groups of a request come from its bearer token (the auth file of the server, docs/server.md). Leave ${name} out.`;

describe('GET /v1/search', () => {
  it('answers { query, hits, notes } like atlas search --json, k and version applied in the index', async () => {
    const response = await createApp(testDeps(index)).request('/v1/search?q=lease+duration&k=3&version=2.x');
    expect(response.status).toBe(200);
    const expected = await index.search('lease duration', { k: 3, filter: { version: '2.x' } });
    expect(await response.json()).toEqual({ query: 'lease duration', hits: expected.map(hitJson), notes: [] });
    expect(expected.every((hit) => hit.appliesTo === '2.x' || hit.appliesTo === 'all')).toBe(true);
  });

  it('defaults to k 5, takes repeatable labels, and notes an unknown release line', async () => {
    const app = createApp(testDeps(index));
    const body = await (await app.request('/v1/search?q=worker&label=section%3Dguides&label=section%3Dapi')).json();
    expect(body.hits).toEqual((await index.search('worker', { k: 5, filter: { labels: { section: ['guides', 'api'] } } })).map(hitJson));
    expect(body.hits).toHaveLength(5);
    const unknown = await (await app.request('/v1/search?q=worker&version=9.x')).json();
    expect(unknown.notes).toEqual(['--version "9.x" is not a release line of this index (known: 2.x, 3.x); only pages for all versions match.']);
  });

  it('the server filter holds: a request for another release line sees only pages for all versions', async () => {
    const app = createApp(testDeps(index, { filter: { version: '3.x' } }));
    const body = await (await app.request('/v1/search?q=lease&k=10&version=2.x')).json();
    expect(body.hits.map((hit: { appliesTo: string }) => hit.appliesTo)).toEqual(Array(body.hits.length).fill('all'));
    expect(body.notes).toEqual(['version "2.x" is outside the server\'s release line "3.x"; only pages for all versions match.']);
  });

  it.each([
    ['/v1/search', 'Atlas: invalid search: q: is required: the text to search for, e.g. ?q=lease+timeout.'],
    ['/v1/search?q=%20', 'Atlas: invalid search: q: must not be empty, e.g. ?q=lease+timeout.'],
    ['/v1/search?q=x&k=0', 'Atlas: invalid search: k: must be from 1 to 50, e.g. k=5.'],
    ['/v1/search?q=x&k=two', 'Atlas: invalid search: k: must be a whole number of results from 1 to 50, e.g. k=5.'],
    ['/v1/search?q=x&label=store', 'Atlas: invalid search: label: must be name=value or name=value1,value2, got "store" (e.g. label=store%3DAundh).'],
    ['/v1/search?q=x&colour=red', 'Atlas: invalid search: query: unknown parameter "colour"; a search takes q, k, version and label.'],
    ['/v1/search?q=x&groups=admins', ACCESS_PARAMETER('groups')],
    ['/v1/search?q=x&principal=admins', ACCESS_PARAMETER('principal')],
  ])('%s is a 400 naming the parameter', async (path, message) => {
    const response = await createApp(testDeps(index)).request(path);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid-request', message } });
  });
});

describe('GET /v1/chunks/:chunkId', () => {
  it('takes ids with slashes, encoded or not (pages in subfolders)', async () => {
    const { createMemoryIndex, makeDoc } = await import('../testing/memory-index.ts');
    const nested = createMemoryIndex([makeDoc('guides/setup', 'all', [['Setup', 'Install Orbit.'], ['Config', 'Edit orbit.toml.']])]);
    const app = createApp(testDeps(nested));
    for (const path of ['/v1/chunks/guides%2Fsetup%231', '/v1/chunks/guides/setup%231']) {
      const response = await app.request(path);
      expect(response.status).toBe(200);
      expect((await response.json()).chunk.text).toBe('Edit orbit.toml.');
    }
  });

  it('answers the whole chunk', async () => {
    const response = await createApp(testDeps(index)).request('/v1/chunks/error-codes%234');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ chunk: JSON.parse(JSON.stringify(await index.getChunk('error-codes#4'))) });
  });

  it.each([
    ['/v1/chunks/error-codes%234?groups=admins', ACCESS_PARAMETER('groups')],
    ['/v1/chunks/error-codes%234?acl=admins', ACCESS_PARAMETER('acl')],
    ['/v1/chunks/error-codes%234?colour=red', 'Atlas: invalid chunk read: query: unknown parameter "colour"; a chunk read takes version.'],
  ])('%s is a 400, as on /v1/search (it was ignored)', async (path, message) => {
    const response = await createApp(testDeps(index)).request(path);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid-request', message } });
  });

  it('a chunk outside the server filter is a 404 like an unknown id', async () => {
    const twoX = (await index.getChunk('config-reference-2x#1'))!;
    expect(twoX.appliesTo).toBe('2.x');
    const app = createApp(testDeps(index, { filter: { version: '3.x' } }));
    const hidden = await app.request(`/v1/chunks/${encodeURIComponent(twoX.chunkId)}`);
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error.message).toBe(`Atlas: no chunk "${twoX.chunkId}" (the id is unknown or outside what this request may read). Chunk ids look like "leases#1": take them from /v1/search hits.`);
    expect((await createApp(testDeps(index)).request(`/v1/chunks/${encodeURIComponent(twoX.chunkId)}`)).status).toBe(200);
  });
});

// docs/reliability.md, "What access groups do not hide": pinned so the threat model stays true.
describe('what an anonymous client can infer of restricted pages (documented, not prevented)', () => {
  it('its scores and /healthz counts depend on restricted pages it cannot read', async () => {
    const { createSqliteIndex } = await import('../index/sqlite/sqlite.ts');
    const { createTestDoc } = await import('../index/test-docs.ts');
    const open = [
      createTestDoc({ docId: 'leases', sections: ['A lease keeps a job with one worker until the lease ends.'] }),
      ...['queues hold jobs', 'workers run jobs', 'retries back off'].map((text, n) => createTestDoc({ docId: `other-${n}`, sections: [`Orbit ${text}.`] })),
    ];
    const secret = createTestDoc({ docId: 'vault', labels: { acl: ['admins'] }, sections: ['The vault lease of the signing key, lease after lease.'] });
    const alone = createSqliteIndex({ path: ':memory:' });
    const mixed = createSqliteIndex({ path: ':memory:' });
    await alone.ingest(open);
    await mixed.ingest([...open, secret]);
    const search = async (index: IndexBackend) => (await (await createApp(testDeps(index)).request('/v1/search?q=lease')).json()) as { hits: Array<{ chunkId: string; score: number }> };
    const [publicOnly, withSecret] = [await search(alone), await search(mixed)];
    expect(withSecret.hits.map((hit) => hit.chunkId)).toEqual(publicOnly.hits.map((hit) => hit.chunkId));
    expect(withSecret.hits[0]!.score).not.toBe(publicOnly.hits[0]!.score);
    expect(await (await createApp(testDeps(mixed)).request('/healthz')).json()).toMatchObject({ docs: 5, chunks: 5 });
    await Promise.all([alone.close(), mixed.close()]);
  });
});
