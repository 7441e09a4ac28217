import { describe, expect, it } from 'vitest';
import { createTestDoc } from '../index/test-docs.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import { createApp } from './app.ts';
import { authenticate, parseAuthFile, singleTokenAuth } from './auth.ts';
import { post, testDeps } from './test-server.ts';

const ALICE = 'alice-0123456789abcdef';
const BOB = 'bob-0123456789abcdef00';

const AUTH_YAML = `tokens:
  - name: alice
    token: ${ALICE}
    groups: [staff, staff, admins]
  - name: bob
    token: ${BOB}
`;

describe('parseAuthFile', () => {
  it('maps tokens to principals (no groups: public pages only)', () => {
    expect(parseAuthFile(AUTH_YAML, 'auth.yaml')).toEqual({
      source: 'auth.yaml',
      tokens: [
        { name: 'alice', token: ALICE, principal: { groups: ['staff', 'admins'] } },
        { name: 'bob', token: BOB, principal: undefined },
      ],
    });
  });

  it('reads JSON too', () => {
    expect(parseAuthFile(JSON.stringify({ tokens: [{ name: 'ci', token: ALICE, groups: ['ci'] }] }), 'auth.json').tokens).toEqual([{ name: 'ci', token: ALICE, principal: { groups: ['ci'] } }]);
  });

  it('reports every problem at once, naming the file, the field and the fix', () => {
    const text = `tokens:
  - name: alice
    token: short
  - name: ""
    token: ${ALICE}
    groups: staff
  - name: carol
    token: ${BOB}
    role: admin
`;
    expect(() => parseAuthFile(text, 'auth.yaml')).toThrow(
      [
        'Atlas: invalid auth file auth.yaml:',
        '  auth.yaml: tokens[0].token: must be at least 16 characters long; make one with openssl rand -hex 24',
        '  auth.yaml: tokens[1].name: must not be empty; name the client, e.g. "ci-bot"',
        '  auth.yaml: tokens[1].groups: must be a list of group names, e.g. [staff, admins]',
        '  auth.yaml: tokens[2]: unknown field "role"; a token has name, token and groups',
        'See docs/server.md for the format.',
      ].join('\n'),
    );
  });

  it('refuses a name or a token used twice', () => {
    const text = `tokens:\n  - { name: a, token: ${ALICE} }\n  - { name: a, token: ${BOB} }\n  - { name: c, token: ${ALICE} }\n`;
    expect(() => parseAuthFile(text, 'auth.yaml')).toThrow(
      'Atlas: invalid auth file auth.yaml:\n  auth.yaml: tokens[1].name: "a" is also the name of tokens[0]; give each client its own name\n  auth.yaml: tokens[2].token: the same token as tokens[0]; give each client its own token\nSee docs/server.md for the format.',
    );
  });

  it.each([
    ['', 'Atlas: invalid auth file auth.yaml:\n  auth.yaml: tokens: must be a list of { name, token, groups }\nSee docs/server.md for the format.'],
    ['tokens: []', 'Atlas: invalid auth file auth.yaml:\n  auth.yaml: tokens: must list at least one token\nSee docs/server.md for the format.'],
    ['tokens: [\n', 'Atlas: auth file auth.yaml is not valid YAML or JSON: '],
    [`users: []\ntokens:\n  - { name: a, token: ${ALICE} }`, 'Atlas: invalid auth file auth.yaml:\n  auth.yaml: (file): unknown field "users"; the file has one field, tokens\nSee docs/server.md for the format.'],
  ])('%j is refused with the fix', (text, message) => {
    expect(() => parseAuthFile(text, 'auth.yaml')).toThrow(message);
  });
});

describe('singleTokenAuth', () => {
  it('is one token with no groups', () => {
    expect(singleTokenAuth(ALICE, 'ATLAS_TOKEN')).toEqual({ source: 'ATLAS_TOKEN', tokens: [{ name: 'ATLAS_TOKEN', token: ALICE, principal: undefined }] });
  });

  it('refuses a short token, naming the variable', () => {
    expect(() => singleTokenAuth('secret', 'ATLAS_TOKEN')).toThrow('Atlas: ATLAS_TOKEN must be at least 16 characters long; make one with openssl rand -hex 24. Or unset it to serve without auth (loopback only).');
  });
});

describe('authenticate', () => {
  const auth = parseAuthFile(AUTH_YAML, 'auth.yaml');
  it.each([
    [`Bearer ${ALICE}`, 'alice'],
    [`bearer ${BOB}  `, 'bob'],
    [`Bearer ${ALICE}x`, undefined],
    [`Bearer ${ALICE.slice(0, -1)}`, undefined],
    [ALICE, undefined],
    [`Basic ${ALICE}`, undefined],
    ['Bearer ', undefined],
    [undefined, undefined],
  ])('%j -> %s', (header, name) => {
    expect(authenticate(auth, header)?.name).toBe(name);
  });
});

describe('the principal comes from the token', () => {
  const index = createSqliteIndex({ path: ':memory:' });
  const ready = index.ingest([
    createTestDoc({ docId: 'vault', labels: { acl: ['admins'] }, sections: ['The vault rotation key is hush-admins.'] }),
    createTestDoc({ docId: 'handbook', sections: ['The vault rotation happens monthly.'] }),
  ]);
  const app = createApp(testDeps(index), { auth: parseAuthFile(AUTH_YAML, 'auth.yaml') });
  const get = (path: string, token?: string) => app.request(path, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  it('without a token or with a wrong one every /v1 route is a 401', async () => {
    await ready;
    for (const response of [await get('/v1/search?q=vault'), await get('/v1/search?q=vault', `${ALICE}x`), await app.request('/v1/ask', post({ question: 'vault?' })), await get('/v1/nope')]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="atlas"');
      expect((await response.json()).error.code).toBe('unauthorized');
    }
    expect((await (await get('/v1/search?q=vault')).clone().json()).error.message).toBe('Atlas: no Authorization header. Send Authorization: Bearer <token> with a token of the server (ATLAS_TOKEN or its auth file).');
  });

  it("a token's groups decide what is found; a hidden chunk is a 404 like an unknown one", async () => {
    await ready;
    const ids = async (token: string) => ((await (await get('/v1/search?q=vault+rotation', token)).json()) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId);
    expect(await ids(ALICE)).toEqual(['vault#0', 'handbook#0']);
    expect(await ids(BOB)).toEqual(['handbook#0']);
    expect((await get('/v1/chunks/vault%230', ALICE)).status).toBe(200);
    const hidden = await get('/v1/chunks/vault%230', BOB);
    const unknown = await get('/v1/chunks/nope%230', BOB);
    expect([hidden.status, unknown.status]).toEqual([404, 404]);
    const hiddenBody = await hidden.json();
    const unknownBody = await unknown.json();
    expect(hiddenBody).toEqual({ error: { code: 'not-found', message: 'Atlas: no chunk "vault#0" (the id is unknown or outside what this request may read). Chunk ids look like "leases#1": take them from /v1/search hits.' } });
    expect(unknownBody.error.message).toBe(hiddenBody.error.message.replace('vault#0', 'nope#0'));
  });

  it("an ask runs with the token's principal", async () => {
    await ready;
    const askAs = async (token: string) => (await (await app.request('/v1/ask', post({ question: 'What is the vault rotation key?' }, token))).json()) as { trace: { steps: Array<{ filter: unknown }>; evidence: Array<{ docId: string }> } };
    const alice = await askAs(ALICE);
    expect(alice.trace.steps[0]!.filter).toEqual({ principal: { groups: ['staff', 'admins'] } });
    expect(alice.trace.evidence.map((record) => record.docId)).toContain('vault');
    const bob = await askAs(BOB);
    expect(bob.trace.steps[0]!.filter).toEqual({});
    expect(bob.trace.evidence.map((record) => record.docId)).toEqual(['handbook']);
  });
});
