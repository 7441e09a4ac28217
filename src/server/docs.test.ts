import { afterAll, describe, expect, it } from 'vitest';
import { createTestDoc } from '../index/test-docs.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createApp } from './app.ts';
import type { AuthConfig } from './auth.ts';
import { testDeps } from './test-server.ts';

// A public page of three sections, a 2.x page, and a page only the staff group may read.
const index = createMemoryIndex([
  makeDoc('leases', 'all', [
    ['Leases', 'A worker holds a job for the lease.'],
    ['Setting', 'Set lease_seconds in orbit.toml.\nThe default is 60.'],
    ['Expiry', 'An expired lease frees the job.'],
  ]),
  makeDoc('upgrade-2x', '2.x', [['Upgrade', 'Run orbit migrate.']]),
]);
const restricted = createSqliteIndex({ path: ':memory:' });
const ready = restricted.ingest([
  createTestDoc({ docId: 'vault', title: 'Vault', labels: { acl: ['staff'] }, sections: ['The vault key is markerx.'] }),
  createTestDoc({ docId: 'open', title: 'Open', sections: ['Everyone reads this.'] }),
]);
afterAll(async () => {
  await index.close();
  await restricted.close();
});

const auth: AuthConfig = {
  source: 'test',
  tokens: [
    { name: 'staff', token: 'staff-token-0123456789', principal: { groups: ['staff'] } },
    { name: 'guest', token: 'guest-token-0123456789', principal: undefined },
  ],
};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

const LEASES = { docId: 'leases', title: 'Leases', sourcePath: 'leases.md', appliesTo: 'all', startLine: 1, endLine: 7 };
const CHUNKS = [
  { chunkId: 'leases#0', heading: 'Leases', headingPath: ['Leases'], startLine: 1, endLine: 2, text: 'A worker holds a job for the lease.' },
  { chunkId: 'leases#1', heading: 'Setting', headingPath: ['Leases', 'Setting'], startLine: 3, endLine: 5, text: 'Set lease_seconds in orbit.toml.\nThe default is 60.' },
  { chunkId: 'leases#2', heading: 'Expiry', headingPath: ['Leases', 'Expiry'], startLine: 6, endLine: 7, text: 'An expired lease frees the job.' },
];

describe('GET /v1/docs/:docId', () => {
  it('answers the page as its chunks in order, with heading paths, source lines and text', async () => {
    const response = await createApp(testDeps(index)).request('/v1/docs/leases');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ doc: LEASES, chunks: CHUNKS });
  });

  it('with lines=a-b answers the chunks holding those lines; one line is a range of one', async () => {
    const app = createApp(testDeps(index));
    expect(await (await app.request('/v1/docs/leases?lines=4-6')).json()).toEqual({ doc: LEASES, chunks: CHUNKS.slice(1), lines: { start: 4, end: 6 } });
    expect(await (await app.request('/v1/docs/leases?lines=2')).json()).toEqual({ doc: LEASES, chunks: CHUNKS.slice(0, 1), lines: { start: 2, end: 2 } });
    const outside = await app.request('/v1/docs/leases?lines=40-42');
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({
      error: { code: 'not-found', message: 'Atlas: no lines 40-42 in doc "leases": its chunks hold lines 1-7 of leases.md. Ask for lines in that range, or leave lines out for the whole page.' },
    });
  });

  it('takes ids with slashes, encoded or not (pages in subfolders)', async () => {
    const nested = createMemoryIndex([makeDoc('guides/setup', 'all', [['Setup', 'Install Orbit.'], ['Config', 'Edit orbit.toml.']])]);
    const app = createApp(testDeps(nested));
    for (const path of ['/v1/docs/guides%2Fsetup', '/v1/docs/guides/setup']) {
      const body = await (await app.request(path)).json();
      expect(body.chunks.map((chunk: { chunkId: string }) => chunk.chunkId)).toEqual(['guides/setup#0', 'guides/setup#1']);
    }
  });

  it('a page outside the server filter, the requested version or the token\'s access is a 404 exactly like an unknown page', async () => {
    await ready;
    const unknown = async (app: ReturnType<typeof createApp>, path: string, token?: string) => {
      const response = await app.request(path, token ? bearer(token) : {});
      return { status: response.status, body: await response.json() };
    };
    const notFound = (docId: string) => ({
      status: 404,
      body: { error: { code: 'not-found', message: `Atlas: no doc "${docId}" (the id is unknown or outside what this request may read). Doc ids are the docId of /v1/search hits, e.g. "error-codes".` } },
    });
    const open = createApp(testDeps(index));
    expect(await unknown(open, '/v1/docs/nope')).toEqual(notFound('nope'));
    expect(await unknown(open, '/v1/docs/upgrade-2x?version=3.x')).toEqual(notFound('upgrade-2x'));
    expect(await unknown(createApp(testDeps(index, { filter: { version: '3.x' } })), '/v1/docs/upgrade-2x')).toEqual(notFound('upgrade-2x'));
    expect((await open.request('/v1/docs/upgrade-2x?version=2.x')).status).toBe(200);

    const guarded = createApp(testDeps(restricted), { auth });
    expect(await unknown(guarded, '/v1/docs/vault', 'guest-token-0123456789')).toEqual(notFound('vault'));
    expect(await unknown(createApp(testDeps(restricted)), '/v1/docs/vault')).toEqual(notFound('vault'));
    const staff = await guarded.request('/v1/docs/vault', bearer('staff-token-0123456789'));
    expect(staff.status).toBe(200);
    expect((await staff.json()).chunks.map((chunk: { text: string }) => chunk.text).join('\n')).toContain('markerx');
    expect((await guarded.request('/v1/docs/open')).status).toBe(401);
  });

  it.each([
    ['/v1/docs/leases?lines=a-b', 'Atlas: invalid page read: lines: must be a line or a range of source lines, e.g. lines=69-92.'],
    ['/v1/docs/leases?lines=9-3', 'Atlas: invalid page read: lines: must run from a first line (at least 1) to a last line not before it, e.g. lines=69-92.'],
    ['/v1/docs/leases?lines=0', 'Atlas: invalid page read: lines: must run from a first line (at least 1) to a last line not before it, e.g. lines=69-92.'],
    ['/v1/docs/leases?colour=red', 'Atlas: invalid page read: query: unknown parameter "colour"; a page read takes version and lines.'],
    ['/v1/docs/leases?groups=staff', 'Atlas: groups: access is not a query parameter; the groups of a request come from its bearer token (the auth file of the server, docs/server.md). Leave groups out.'],
  ])('%s is a 400 naming the parameter', async (path, message) => {
    const response = await createApp(testDeps(index)).request(path);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid-request', message } });
  });
});
