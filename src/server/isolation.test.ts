import { afterAll, describe, expect, it } from 'vitest';
import { createTestDoc } from '../index/test-docs.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { SearchFilter } from '../index/types.ts';
import { createApp } from './app.ts';
import type { AuthConfig } from './auth.ts';
import { createGatedModel, post, testDeps } from './test-server.ts';

// Four teams, each with a restricted page whose text carries a marker no other team may see,
// over public pages of two release lines and two stores that every question matches too.
const TEAMS = ['red', 'blue', 'green', 'gold'];
const index = createSqliteIndex({ path: ':memory:' });
const ready = index.ingest([
  ...TEAMS.map((team) =>
    createTestDoc({ docId: `vault-${team}`, title: `Vault of team ${team}`, labels: { acl: [team] }, sections: [`The vault rotation key of team ${team} is marker${team}x. Rotate the vault key monthly.`] }),
  ),
  createTestDoc({ docId: 'vault-2x', appliesTo: '2.x', sections: ['In 2.x the vault rotation key lives in orbit.ini.'] }),
  createTestDoc({ docId: 'vault-3x', appliesTo: '3.x', sections: ['In 3.x the vault rotation key lives in orbit.toml.'] }),
  createTestDoc({ docId: 'vault-aundh', labels: { store: 'Aundh' }, sections: ['The Aundh store rotates its vault key on Mondays.'] }),
  createTestDoc({ docId: 'vault-baner', labels: { store: 'Baner' }, sections: ['The Baner store rotates its vault key on Fridays.'] }),
]);
afterAll(async () => {
  await index.close();
});

const auth: AuthConfig = {
  source: 'test',
  tokens: [...TEAMS.map((team) => ({ name: team, token: `${team}-token-0123456789`, principal: { groups: [team] } })), { name: 'guest', token: 'guest-token-0123456789', principal: undefined }],
};

/**
 * Twenty asks: each token, each with its own release line or store (or none). A team's page
 * answers the question directly; the public pages only come close (they never name a team).
 */
const REQUESTS = Array.from({ length: 20 }, (_, n) => {
  const token = auth.tokens[n % auth.tokens.length]!;
  const body = { question: 'What is the vault rotation key of the team?', ...[{}, { version: '2.x' }, { version: '3.x' }, { labels: { store: 'Aundh' } }][n % 4] };
  return { token, body };
});

function filterOf(request: (typeof REQUESTS)[number]): SearchFilter {
  const { version, labels } = request.body as { version?: string; labels?: Record<string, string> };
  return { ...(version ? { version } : {}), ...(labels ? { labels: { store: [labels.store!] } } : {}), ...(request.token.principal ? { principal: request.token.principal } : {}) };
}

describe('20 concurrent asks with different principals and filters', () => {
  it('share no evidence: each run sees only what its principal and filter may read, and equals the same ask run alone', async () => {
    await ready;
    const model = createGatedModel();
    const app = createApp(testDeps(index, { model }), { auth, limits: { maxConcurrent: 20, maxConcurrentPerClient: 20 } });
    const ask = async (request: (typeof REQUESTS)[number]): Promise<any> => (await app.request('/v1/ask', post(request.body, request.token.token))).json();
    const pending = REQUESTS.map(ask);
    await model.started(20); // every run is in flight before any model call answers
    model.release();
    const runs = await Promise.all(pending);

    for (const [n, run] of runs.entries()) {
      const request = REQUESTS[n]!;
      const filter = filterOf(request);
      const evidence: Array<{ chunkId: string; docId: string }> = run.trace.evidence;
      expect(evidence.length).toBeGreaterThan(0);
      for (const record of evidence) expect(await index.getChunk(record.chunkId, filter), `run ${n} saw ${record.chunkId}`).toBeDefined();
      for (const step of run.trace.steps) expect(step.filter).toEqual(filter);
      const text = JSON.stringify(run);
      for (const team of TEAMS) expect(text.includes(`marker${team}x`), `run ${n} (${request.token.name}) and the marker of ${team}`).toBe(request.token.name === team);
    }
    // Each run is exactly what it is alone: nothing leaked in from the runs beside it.
    const alone = [];
    for (const request of REQUESTS) alone.push(await ask(request));
    expect(runs).toEqual(alone);
    // The teams' own pages reached their teams (the test would pass vacuously otherwise): each team
    // is answered with its own key; a guest gets the closest public page its filter allows.
    expect(runs.filter((run: any, n: number) => run.trace.evidence.some((record: { docId: string }) => record.docId === `vault-${REQUESTS[n]!.token.name}`))).toHaveLength(16);
    const guestClosest = ['vault-2x', 'vault-2x', 'vault-3x', 'vault-2x']; // no filter, 2.x, 3.x, store Aundh
    expect(runs.map((run: any) => [run.answer.text, (run.answer.closest ?? []).map((passage: { docId: string }) => passage.docId)])).toEqual(
      REQUESTS.map(({ token }, n) =>
        token.principal
          ? [`The vault rotation key of team ${token.name} is marker${token.name}x. [1]`, []]
          : ["I couldn't find a direct answer in the docs.", [guestClosest[n % 4]]],
      ),
    );
  });
});
