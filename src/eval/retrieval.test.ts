import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.ts';
import type { SearchFilter } from '../index/types.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { runRetrievalEval } from './retrieval.ts';
import { recordingIO, runEval, TINY, TINY_SCRIPTS } from '../cli/test-cli.ts';
import { createPolicyModel } from './test-model.ts';

const classicRow = (kind: string, arm: string, n: number, recall: number, allFound: number, chunks: number, p50Ms = 0) => ({
  kind,
  arm,
  n,
  recall,
  // Classic passages are shown as full section text: every page seen is read.
  readRecall: recall,
  allFound,
  searches: 1,
  chunks,
  p50Ms,
});
const HOP = 'A step that returns a big result fails after finishing: which error is it and which setting limits it?';
const classicCase = (docs: string[], chunks: number, recall = 1) => ({ recall, readRecall: recall, docsSeen: docs, docsRead: docs, searches: 1, chunks });

describe('atlas eval retrieval (tiny dataset)', () => {
  it('prints recall and read recall by kind, every case per arm and the identifier check as one JSON object', async () => {
    const io = recordingIO();
    // hop-1 reads the error-codes section it found (short: its neighbour's first lines come with it, a chunk
    // more of the same page), then searches again: three pages seen, and read too, since the search
    // results show these short passages whole.
    const model = createPolicyModel({ ...TINY_SCRIPTS, [HOP]: { searches: ['ORB-1202', { read: 'error-codes' }, 'payload limit'], cite: [] } });
    const result = JSON.parse(await runEval(['eval', 'retrieval', '--data', TINY, '--json'], io, model));
    expect(result.dataset).toBe('tiny');
    expect(result.rows).toEqual([
      classicRow('exact_term', 'classic@5', 1, 1, 1, 1),
      classicRow('exact_term', 'classic@15', 1, 1, 1, 1),
      { kind: 'exact_term', arm: 'agentic', n: 1, recall: 1, readRecall: 1, allFound: 1, searches: 1, chunks: 1, p50Ms: 0 },
      classicRow('multi_hop', 'classic@5', 1, 1, 1, 5),
      classicRow('multi_hop', 'classic@15', 1, 1, 1, 8),
      { kind: 'multi_hop', arm: 'agentic', n: 1, recall: 1, readRecall: 1, allFound: 1, searches: 2, chunks: 5, p50Ms: 0 },
      classicRow('version', 'classic@5', 1, 1, 1, 2),
      classicRow('version', 'classic@15', 1, 1, 1, 2),
      { kind: 'version', arm: 'agentic', n: 1, recall: 1, readRecall: 1, allFound: 1, searches: 1, chunks: 1, p50Ms: 0 },
      { kind: 'unanswerable', arm: 'agentic', n: 1, abstainRate: 0, searches: 1, chunks: 1, p50Ms: 0 },
      classicRow('all', 'classic@5', 3, 1, 1, 2.667),
      classicRow('all', 'classic@15', 3, 1, 1, 3.667),
      { kind: 'all', arm: 'agentic', n: 3, recall: 1, readRecall: 1, allFound: 1, searches: 1.333, chunks: 2.333, p50Ms: 0 },
    ]);
    expect(result.cases).toEqual([
      {
        id: 'exact-1',
        kind: 'exact_term',
        gold: ['error-codes'],
        arms: {
          'classic@5': classicCase(['error-codes'], 1),
          'classic@15': classicCase(['error-codes'], 1),
          agentic: { recall: 1, readRecall: 1, docsSeen: ['error-codes'], docsRead: ['error-codes'], searches: 1, chunks: 1, abstained: false },
        },
      },
      {
        id: 'hop-1',
        kind: 'multi_hop',
        gold: ['flows', 'error-codes', 'limits'],
        arms: {
          'classic@5': classicCase(['flows', 'error-codes', 'limits'], 5),
          'classic@15': classicCase(['flows', 'error-codes', 'limits', 'leases-2x', 'leases-3x'], 8),
          agentic: { recall: 1, readRecall: 1, docsSeen: ['error-codes', 'limits', 'flows'], docsRead: ['error-codes', 'limits', 'flows'], searches: 2, chunks: 5, abstained: true },
        },
      },
      {
        id: 'version-1',
        kind: 'version',
        gold: ['leases-3x'],
        arms: {
          'classic@5': classicCase(['leases-3x', 'limits'], 2),
          'classic@15': classicCase(['leases-3x', 'limits'], 2),
          agentic: { recall: 1, readRecall: 1, docsSeen: ['leases-3x'], docsRead: ['leases-3x'], searches: 1, chunks: 1, abstained: true },
        },
      },
      // Classic arms do not run on queries without gold pages.
      {
        id: 'none-1',
        kind: 'unanswerable',
        gold: [],
        arms: { agentic: { recall: null, readRecall: null, docsSeen: ['scheduling'], docsRead: ['scheduling'], searches: 1, chunks: 1, abstained: false } },
      },
    ]);
    // Only exact-1 names an identifier (ORB-1202); its page is the first hit.
    expect(result.identifiers).toEqual({
      rows: [
        { kind: 'exact_term', n: 1, mrr10: 1, hit1: 1, hit10: 1 },
        { kind: 'all', n: 1, mrr10: 1, hit1: 1, hit10: 1 },
      ],
      cases: [{ id: 'exact-1', kind: 'exact_term', identifiers: ['ORB-1202'], gold: ['error-codes'], rank: 1 }],
    });
    expect(io.err.at(-1)).toBe('eval retrieval: 10/10 (100%), ETA 0s\n');
  });

  it('runs only the classic arms without a model, timing each search with the injected clock', async () => {
    let clock = 0;
    const io = recordingIO({ now: () => (clock += 0.25) });
    const noModel = createPolicyModel({}, 0);
    const out = await runEval(['eval', 'retrieval', '--data', TINY, '--arms', 'classic', '--json'], io, noModel, {
      resolveModel: () => {
        throw new Error('no model should be resolved for --arms classic');
      },
    });
    expect(JSON.parse(out).rows.map((row: { kind: string; arm: string; p50Ms: number }) => `${row.kind} ${row.arm} ${row.p50Ms}`)).toEqual([
      'exact_term classic@5 0.25',
      'exact_term classic@15 0.25',
      'multi_hop classic@5 0.25',
      'multi_hop classic@15 0.25',
      'version classic@5 0.25',
      'version classic@15 0.25',
      'all classic@5 0.25',
      'all classic@15 0.25',
    ]);
  });

  it('labels the capped agentic arm with maxChunks and prints a readable table', async () => {
    const model = createPolicyModel({ ...TINY_SCRIPTS, 'ORB-1202': { searches: ['ORB-1202', 'payload limit'], cite: ['error-codes'] } });
    const out = await runEval(['eval', 'retrieval', '--data', TINY, '--arms', 'agentic', '--max-chunks', '2'], recordingIO(), model);
    expect(out).toBe(
      [
        'Retrieval eval on tiny (recall: share of gold pages among the chunks seen; read recall: among the chunks read in full)',
        '',
        'kind          arm                   n  recall  read recall  allFound  abstain  searches  chunks  p50 ms',
        '------------  --------------------  -  ------  -----------  --------  -------  --------  ------  ------',
        'exact_term    agentic (<=2 chunks)  1       1            1         1        -         2       2       0',
        'multi_hop     agentic (<=2 chunks)  1   0.333        0.333         0        -         1       1       0',
        'version       agentic (<=2 chunks)  1       1            1         1        -         1       1       0',
        'unanswerable  agentic (<=2 chunks)  1       -            -         -        0         1       1       0',
        'all           agentic (<=2 chunks)  3   0.778        0.778     0.667        -     1.333   1.333       0',
        '',
        'Identifier queries (kind exact_term, or naming an identifier): rank of the first gold chunk in plain index.search(query, { k: 10 }), no version filter',
        '',
        'kind        n  mrr@10  hit@1  hit@10',
        '----------  -  ------  -----  ------',
        'exact_term  1       1      1       1',
        'all         1       1      1       1',
        '',
      ].join('\n'),
    );
  });

  it('rejects an unknown arm with exit code 2 and says what to pass', async () => {
    const io = recordingIO();
    expect(await runCli(['eval', 'retrieval', '--data', TINY, '--arms', 'classic,vector'], io)).toBe(2);
    expect(io.err.join('')).toContain('--arms takes classic, agentic or both, got "classic,vector" (e.g. --arms classic,agentic).');
  });
});

describe('runRetrievalEval with a run filter (--groups, --label)', () => {
  const vault = makeDoc('vault', 'all', [['Vault', 'The vault rotation key is kept by the admins.']]);
  const restricted = { ...vault, labels: { acl: ['admins'] }, chunks: vault.chunks.map((chunk) => ({ ...chunk, labels: { acl: ['admins'] } })) };
  const index = createMemoryIndex([restricted, makeDoc('faq', 'all', [['FAQ', 'Ask the admins about the vault.']])]);
  const queries = [{ id: 'q1', query: 'vault rotation key', kind: 'exact_term' as const, relevantDocIds: ['vault'], version: null, facts: [], line: 1 }];
  const recallAt5 = async (filter?: SearchFilter) => {
    const { rows } = await runRetrievalEval({ queries, index, arms: ['classic'], ...(filter ? { filter } : {}) });
    return rows.find((row) => row.arm === 'classic@5' && row.kind === 'all')?.recall;
  };

  it('holds every search to the access groups: a restricted gold page counts only for a principal in its group', async () => {
    expect(await recallAt5()).toBe(0);
    expect(await recallAt5({ principal: { groups: ['staff'] } })).toBe(0);
    expect(await recallAt5({ principal: { groups: ['admins'] } })).toBe(1);
  });
});
