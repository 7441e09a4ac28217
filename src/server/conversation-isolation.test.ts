// Issue 12 item 7: twenty conversations in flight at once share no evidence. Each belongs to one
// token (one team, or a guest) and one filter; two turns each, all conversations interleaved.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConversationStore } from '../conversations/sqlite-store.ts';
import type { ConversationStore } from '../conversations/store.ts';
import { createTestDoc } from '../index/test-docs.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { SearchFilter } from '../index/types.ts';
import { createApp } from './app.ts';
import type { AuthConfig } from './auth.ts';
import { conversationsApp } from './conversations.ts';
import { createGatedModel, post, testDeps } from './test-server.ts';

const TEAMS = ['red', 'blue', 'green', 'gold'];
const index = createSqliteIndex({ path: ':memory:' });
const ready = index.ingest([
  ...TEAMS.map((team) =>
    createTestDoc({
      docId: `vault-${team}`,
      title: `Vault of team ${team}`,
      labels: { acl: [team] },
      sections: [`The vault rotation key of team ${team} is marker${team}x. Rotate the vault key monthly.`, `Team ${team} rotates the vault key with vault-rotate --team ${team}.`],
    }),
  ),
  createTestDoc({ docId: 'vault-2x', appliesTo: '2.x', sections: ['In 2.x the vault rotation key lives in orbit.ini.', 'Rotate it in 2.x with orbit vault rotate.'] }),
  createTestDoc({ docId: 'vault-3x', appliesTo: '3.x', sections: ['In 3.x the vault rotation key lives in orbit.toml.', 'Rotate it in 3.x with orbit keys rotate.'] }),
  createTestDoc({ docId: 'vault-guide', sections: ['The vault rotation key protects stored secrets.', 'How often to rotate the vault key: monthly, or after a leak.'] }),
]);

const auth: AuthConfig = {
  source: 'test',
  tokens: [...TEAMS.map((team) => ({ name: team, token: `${team}-token-0123456789`, principal: { groups: [team] } })), { name: 'guest', token: 'guest-token-0123456789', principal: undefined }],
};
const VERSIONS = [undefined, '2.x', '3.x', undefined];
/** Twenty conversations: each token, each with a release line of its own (or none). */
const CONVERSATIONS = Array.from({ length: 20 }, (_, n) => ({ token: auth.tokens[n % auth.tokens.length]!, version: VERSIONS[n % 4] }));
const QUESTIONS = ['What is the vault rotation key?', 'and how do I rotate it?'];

let dir: string;
let store: ConversationStore;
beforeAll(async () => {
  await ready;
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-conv-isolation-'));
  store = openConversationStore({ path: path.join(dir, 'state.db') });
});
afterAll(async () => {
  await store.close();
  await index.close();
  await rm(dir, { recursive: true, force: true });
});

/** The filter a conversation's searches run with: a guest's conversation is stored with no groups (public pages). */
function filterOf(conversation: (typeof CONVERSATIONS)[number]): SearchFilter {
  return { ...(conversation.version ? { version: conversation.version } : {}), principal: conversation.token.principal ?? { groups: [] } };
}

describe('20 concurrent conversations', () => {
  it('share no evidence: each turn sees only its principal and filter, skips only its own earlier passages, and equals the conversation run alone', async () => {
    const model = createGatedModel();
    const deps = testDeps(index, { model });
    const app = createApp(deps, { auth, routes: [conversationsApp(deps, store)], limits: { maxConcurrent: 20, maxConcurrentPerClient: 20 } });
    const open = async (conversation: (typeof CONVERSATIONS)[number]): Promise<string> => {
      const response = await app.request('/v1/conversations', post(conversation.version ? { version: conversation.version } : {}, conversation.token.token));
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    const turn = async (conversation: (typeof CONVERSATIONS)[number], id: string, content: string): Promise<any> => {
      const response = await app.request(`/v1/conversations/${id}/messages`, post({ content }, conversation.token.token));
      expect(response.status).toBe(200);
      return response.json();
    };
    const converse = async (conversation: (typeof CONVERSATIONS)[number]) => {
      const id = await open(conversation);
      const first = await turn(conversation, id, QUESTIONS[0]!);
      const second = await turn(conversation, id, QUESTIONS[1]!);
      return { id, first, second };
    };

    const pending = CONVERSATIONS.map(converse);
    await model.started(20); // every first turn is in flight before any model call answers
    model.release();
    const results = await Promise.all(pending);

    expect(new Set(results.map((result) => result.id)).size).toBe(20);
    for (const [n, result] of results.entries()) {
      const conversation = CONVERSATIONS[n]!;
      const filter = filterOf(conversation);
      for (const run of [result.first, result.second]) {
        expect(run.conversationId).toBe(result.id);
        expect(run.trace.evidence.length).toBeGreaterThan(0);
        for (const record of run.trace.evidence) expect(await index.getChunk(record.chunkId, filter), `conversation ${n} saw ${record.chunkId}`).toBeDefined();
        for (const step of run.trace.steps) expect(step.filter).toEqual(filter);
        const text = JSON.stringify(run);
        for (const team of TEAMS) expect(text.includes(`marker${team}x`) && conversation.token.name !== team, `conversation ${n} (${conversation.token.name}) and the marker of ${team}`).toBe(false);
      }
      // The second turn's searches skip what this conversation's first turn was shown (it may re-read one by id).
      const firstSeen = new Set(result.first.trace.evidence.map((record: { chunkId: string }) => record.chunkId));
      const searched: string[] = result.second.trace.steps.flatMap((step: { chunkIds: string[] }) => step.chunkIds);
      expect(searched.filter((chunkId) => firstSeen.has(chunkId))).toEqual([]);
      expect(result.second.trace.steps[0].skippedSeen).toBeGreaterThan(0);
    }
    // Each conversation is exactly what it is alone: nothing leaked in from the conversations beside it.
    const strip = ({ id: _id, first, second }: { id: string; first: any; second: any }) => [first, second].map(({ conversationId: _c, turn: _t, latencyMs: _l, ...run }) => run);
    for (const [n, conversation] of CONVERSATIONS.entries()) {
      expect(strip(await converse(conversation)), `conversation ${n} alone`).toEqual(strip(results[n]!));
    }
    // The teams' restricted pages reached their own conversations (the test would pass vacuously otherwise).
    const reached = results.filter((result, n) => JSON.stringify(result.first).includes(`marker${CONVERSATIONS[n]!.token.name}x`));
    expect(reached).toHaveLength(16);
  });
});
