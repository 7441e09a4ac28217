import { describe, expect, it } from 'vitest';
import { formatRetrievalReport } from './format.ts';

const title = 'Identifier queries (kind exact_term, or naming an identifier): rank of the first gold chunk in plain index.search(query, { k: 10 }), no version filter';

describe('formatRetrievalReport', () => {
  it('prints the identifier check with the queries whose gold chunk is not in the top 10', () => {
    const out = formatRetrievalReport('demo', {
      rows: [],
      identifiers: {
        rows: [
          { kind: 'exact_term', n: 2, mrr10: 0.5, hit1: 0.5, hit10: 0.5 },
          { kind: 'all', n: 2, mrr10: 0.5, hit1: 0.5, hit10: 0.5 },
        ],
        cases: [
          { id: 'et-1', kind: 'exact_term', identifiers: ['ORB-1202'], gold: ['error-codes'], rank: 1 },
          { id: 'et-2', kind: 'exact_term', identifiers: [], gold: ['dead-letters'], rank: null },
        ],
      },
    });
    expect(out.split('\n').slice(-8)).toEqual([
      title,
      '',
      'kind        n  mrr@10  hit@1  hit@10',
      '----------  -  ------  -----  ------',
      'exact_term  2     0.5    0.5     0.5',
      'all         2     0.5    0.5     0.5',
      'No gold chunk in the top 10: et-2',
      '',
    ]);
  });

  it('says so when no query names an identifier', () => {
    const out = formatRetrievalReport('demo', { rows: [], identifiers: { rows: [], cases: [] } });
    expect(out.split('\n').slice(-2)).toEqual([`${title}: none in this dataset.`, '']);
  });
});
