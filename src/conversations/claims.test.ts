import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/model.ts';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { askInConversation } from './ask.ts';
import { openConversationStore } from './store.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

describe('claims of conversation turns (agent/trust/claims.ts)', () => {
  it('judges the claims of every conversation turn, strictClaims included', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atlas-claims-'));
    const store = openConversationStore({ path: path.join(dir, 'state.db'), randomId: () => 'c1', now: () => 0 });
    try {
      const { id } = store.create({ principal: { groups: [] } });
      const first = await askInConversation(store, id, 'How do I enqueue a job in Orbit 3.x?', { groups: [] }, { model: createOfflineModel(), index, strictClaims: true });
      const second = await askInConversation(store, id, 'and how do I cancel it?', { groups: [] }, { model: createOfflineModel(), index, strictClaims: true });
      for (const reply of [first, second]) {
        const run = reply!.run;
        expect([run.answer.abstained, (run.answer.claims ?? []).length > 0, (run.answer.claims ?? []).every((claim) => claim.supported)]).toEqual([false, true, true]);
      }
    } finally {
      store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
