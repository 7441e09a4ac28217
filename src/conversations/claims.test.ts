import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../models/offline/model.ts';
import { plainText } from '../models/offline/plain-text.ts';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { askInConversation } from './ask.ts';
import { openConversationStore } from './sqlite-store.ts';

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
      const { id } = await store.create({ principal: { groups: [] } });
      const options = { model: createOfflineModel(), index, strictClaims: true };
      const first = (await askInConversation(store, id, 'How do I enqueue a job in Orbit 3.x?', { groups: [] }, options))!.run;
      const second = (await askInConversation(store, id, 'and how do I cancel a queued job with the client?', { groups: [] }, options))!.run;
      for (const run of [first, second]) {
        const claims = run.answer.claims ?? [];
        // Every claim is supported and cited, so strictClaims removed none: the text is the claims.
        expect([run.answer.abstained, claims.length > 0, claims.every((claim) => claim.supported && claim.citations.length > 0)]).toEqual([false, true, true]);
        expect(run.answer.text).toBe(claims.map((claim) => claim.text).join(' '));
      }
      // A sentence is one claim, or two at its semicolon, each backed by the sentence's own quote.
      const [tutorial, targets] = [
        'You will install Orbit, start a local Redis broker, write a job, configure Orbit with an `orbit.toml` file, and enqueue the job from Python.',
        'It targets Orbit 3.2.1; if you are still on the 2.x line, follow [Quick start (2.x)](quick-start-2x.md) instead.',
      ];
      expect(first.answer.citations.map((citation) => [citation.chunkId, citation.quote])).toEqual([
        ['quick-start-3x#0', tutorial],
        ['quick-start-3x#0', targets],
      ]);
      const [targetsVersion, targetsOther] = plainText(targets).split(/(?<=;) /);
      expect(first.answer.claims).toEqual([
        { text: `${plainText(tutorial)} [1]`, supported: true, score: 1, citations: [0] },
        { text: targetsVersion, supported: true, score: 1, citations: [1] },
        { text: `${targetsOther} [2]`, supported: true, score: 1, citations: [1] },
      ]);
      // The follow-up's direct sentence leads; what follows it depends on the follow-up's searches.
      const cancel = '`cancel` removes a queued job; a job that is already running finishes its attempt but is not retried, and its outcome is discarded.';
      expect(second.answer.citations.map((citation) => [citation.chunkId, citation.quote])[0]).toEqual(['api-client#4', cancel]);
      const [removes, running] = plainText(cancel).split(/(?<=;) /);
      expect(second.answer.claims?.slice(0, 2)).toEqual([
        { text: removes, supported: true, score: 1, citations: [0] },
        { text: `${running} [1]`, supported: true, score: 1, citations: [0] },
      ]);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
