import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';
import type { QueryKind } from './dataset/dataset-schema.ts';
import { loadDataset, type RetrievalQuery } from './dataset/dataset.ts';
import { runIdentifierCheck } from './identifier-check.ts';
import { TINY } from '../cli/test-cli.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadDataset(TINY)).docs);
});
afterAll(async () => {
  await index.close();
});

const query = (id: string, kind: QueryKind, text: string, gold: string[], version: string | null = null): RetrievalQuery => ({
  id,
  kind,
  query: text,
  relevantDocIds: gold,
  version,
  facts: [],
  line: 1,
});

describe('runIdentifierCheck (tiny index)', () => {
  it('ranks the first gold chunk of every identifier query in plain search, without the version filter', async () => {
    const check = await runIdentifierCheck({
      index,
      queries: [
        // leases-2x#0 outranks leases-3x#0; a 3.x filter would hide it, the check does not filter.
        query('q-exact', 'exact_term', 'ORBIT_LEASE_TIMEOUT', ['leases-3x'], '3.x'),
        // limits#1, then error-codes#1.
        query('q-semantic', 'semantic', 'What is the `max_payload_kb` default?', ['error-codes']),
        query('q-plain', 'semantic', 'How do cron schedules run?', ['scheduling']),
        // Only the two leases pages match: limits is not in the top 10.
        query('q-hop', 'multi_hop', 'Where is orbit.toml read?', ['limits']),
        query('q-version', 'version', 'Is lease_seconds a 3.x setting?', ['leases-3x'], '3.x'),
        query('q-none', 'unanswerable', 'Does `lease_seconds` apply to Kafka?', []),
      ],
    });
    expect(check.cases).toEqual([
      { id: 'q-exact', kind: 'exact_term', identifiers: ['ORBIT_LEASE_TIMEOUT'], gold: ['leases-3x'], rank: 2 },
      { id: 'q-semantic', kind: 'semantic', identifiers: ['max_payload_kb'], gold: ['error-codes'], rank: 2 },
      { id: 'q-hop', kind: 'multi_hop', identifiers: ['orbit.toml'], gold: ['limits'], rank: null },
      { id: 'q-version', kind: 'version', identifiers: ['lease_seconds'], gold: ['leases-3x'], rank: 1 },
    ]);
    expect(check.rows).toEqual([
      { kind: 'exact_term', n: 1, mrr10: 0.5, hit1: 0, hit10: 1 },
      { kind: 'semantic', n: 1, mrr10: 0.5, hit1: 0, hit10: 1 },
      { kind: 'multi_hop', n: 1, mrr10: 0, hit1: 0, hit10: 0 },
      { kind: 'version', n: 1, mrr10: 1, hit1: 1, hit10: 1 },
      { kind: 'all', n: 4, mrr10: 0.5, hit1: 0.25, hit10: 0.75 },
    ]);
  });

  it('has no rows when no query names an identifier', async () => {
    const check = await runIdentifierCheck({ index, queries: [query('q-plain', 'semantic', 'How do cron schedules run?', ['scheduling'])] });
    expect(check).toEqual({ rows: [], cases: [] });
  });
});
