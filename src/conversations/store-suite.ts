// The contract every ConversationStore keeps, run against each implementation (store.test.ts).
import { describe, expect, it } from 'vitest';
import type { AgentRun } from '../agent/run-types.ts';
import type { Citation } from '../agent/trust/answer.ts';
import type { ConversationStore, NewTurn } from './store.ts';

/** A store under test, and how to open the same storage again (a restart, or another replica). */
export interface StoreUnderTest {
  store: ConversationStore;
  reopen(): Promise<ConversationStore>;
}

const T0 = Date.parse('2026-05-06T07:08:09.000Z');
const staff = { groups: ['staff', 'admin'] };

/** A finished turn's run: its answer, one search per query (showing `chunkIds`), and one read. */
function turnOf(question: string, chunkIds: string[], texts: string[], source: 'search' | 'read' = 'search'): NewTurn {
  const citation: Citation = { docId: 'deploy', quote: 'Run atlas deploy.', chunkId: 'deploy#1', heading: 'Deploy', headingPath: ['Guide', 'Deploy'], sourcePath: 'deploy.md', startLine: 3, endLine: 4 };
  const run: AgentRun = {
    question,
    answer: { text: `About ${question}`, citations: [citation], abstained: false },
    trace: {
      steps: [{ query: question, filter: { version: '3.x' }, docIds: [], newDocIds: [], chunkIds, skippedSeen: 0, page: 2 }],
      reads: [{ tool: 'read_section', chunkId: chunkIds[0] ?? 'none', found: true, newChunkIds: [] }],
      evidence: [],
      rankedDocIds: [],
      toolChoices: [],
      calls: [],
      stopReason: 'model-done',
      droppedCitations: [],
      errors: [],
    },
    usage: { modelCalls: 2, inputTokens: 10, outputTokens: 5, costUsd: null },
    latencyMs: 7,
  };
  return { question, run, startedAt: T0, passages: chunkIds.map((chunkId) => ({ chunkId, texts, source })) };
}

/**
 * The ConversationStore contract: visibility by principal and user, turns numbered and stored
 * whole, passages merged in first-shown order, concurrent saves of one conversation all kept,
 * and everything found again after reopening. `open` makes an empty store with ids `c-1`,
 * `c-2`, ... and a clock at 2026-05-06T07:08:09Z.
 *
 * @example
 * describeConversationStore('SQLite', async () => { ... return { store, reopen }; });
 */
export function describeConversationStore(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConversationStore contract: ${name}`, () => {
    it('finds a conversation only for the principal and user that created it, with its filter (never the principal)', async () => {
      const { store } = await open();
      const made = await store.create({ principal: staff, user: 'alice', filter: { version: '3.x', labels: { store: ['Aundh'] }, principal: { groups: ['x'] } } });
      expect(made).toEqual({ id: 'c-1', createdAt: '2026-05-06T07:08:09.000Z', groups: ['admin', 'staff'], owner: 'alice', filter: { version: '3.x', labels: { store: ['Aundh'] } }, turns: [] });
      expect(await store.get('c-1', { groups: ['admin', 'staff'] }, 'alice')).toEqual(made);
      expect(await store.get('c-1', { groups: ['staff'] }, 'alice')).toBeUndefined();
      expect(await store.get('c-1', staff, 'bob')).toBeUndefined();
      expect(await store.get('c-1', staff)).toBeUndefined();
      const anonymous = await store.create({});
      expect((await store.get(anonymous.id, undefined, 'anyone'))?.groups).toEqual([]);
      expect(await store.get('nope', staff, 'alice')).toBeUndefined();
      expect(await store.passages('nope')).toEqual([]);
      await store.close();
    });

    it('stores turns numbered from 1 with their answer, citations and trace summary; merges passages in first-shown order', async () => {
      const { store, reopen } = await open();
      const { id } = await store.create({ principal: staff });
      const first = await store.saveTurn(id, turnOf('how to deploy', ['deploy#1', 'deploy#2'], ['snippet A']));
      expect(first).toEqual({
        turn: 1,
        question: 'how to deploy',
        answer: 'About how to deploy',
        abstained: false,
        citations: [{ docId: 'deploy', quote: 'Run atlas deploy.', chunkId: 'deploy#1', heading: 'Deploy', headingPath: ['Guide', 'Deploy'], sourcePath: 'deploy.md', startLine: 3, endLine: 4 }],
        trace: {
          stopReason: 'model-done',
          searches: [{ query: 'how to deploy', version: '3.x', page: 2, chunkIds: ['deploy#1', 'deploy#2'] }],
          reads: [{ tool: 'read_section', chunkId: 'deploy#1' }],
          evidence: 0,
          modelCalls: 2,
          inputTokens: 10,
          outputTokens: 5,
          latencyMs: 7,
        },
        startedAt: '2026-05-06T07:08:09.000Z',
        finishedAt: '2026-05-06T07:08:09.000Z',
      });
      const second = await store.saveTurn(id, turnOf('and roll back', ['rollback#0', 'deploy#2'], ['page B'], 'read'));
      expect(second.turn).toBe(2);
      for (const reader of [store, await reopen()]) {
        expect((await reader.get(id, staff))?.turns).toEqual([first, second]);
        expect(await reader.passages(id)).toEqual([
          { chunkId: 'deploy#1', texts: ['snippet A'], source: 'search' },
          { chunkId: 'deploy#2', texts: ['snippet A', 'page B'], source: 'read' },
          { chunkId: 'rollback#0', texts: ['page B'], source: 'read' },
        ]);
        await reader.close();
      }
    });

    it('keeps every one of 20 turns of one conversation saved at once, numbered 1 to 20, and every passage', async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      const { id } = await store.create({ principal: staff });
      const questions = Array.from({ length: 20 }, (_, n) => `question ${n}`);
      // Half through each of two handles on the same storage (two replicas).
      const saved = await Promise.all(questions.map((question, n) => (n % 2 === 0 ? store : other).saveTurn(id, turnOf(question, [`page#${n}`, 'shared#0'], [`text ${n}`]))));
      expect(saved.map((turn) => turn.turn).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
      const turns = (await store.get(id, staff))!.turns;
      expect(turns.map((turn) => turn.turn)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
      expect(turns.map((turn) => turn.question).sort()).toEqual([...questions].sort());
      const passages = await other.passages(id);
      expect(passages.map((passage) => passage.chunkId).sort()).toEqual([...questions.map((_, n) => `page#${n}`), 'shared#0'].sort());
      expect(passages.find((passage) => passage.chunkId === 'shared#0')!.texts.sort()).toEqual(questions.map((_, n) => `text ${n}`).sort());
      await other.close();
      await store.close();
    });
  });
}
