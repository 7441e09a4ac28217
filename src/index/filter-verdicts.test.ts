import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { filterClause } from './filter.ts';
import { createFilterVerdicts } from './filter-verdicts.ts';
import { createStatementCache, type StatementCache } from './sql-rows.ts';
import { buildVersionedIndex } from '../testing/versioned-index.ts';

const scratch = mkdtempSync(join(tmpdir(), 'atlas-verdicts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('createFilterVerdicts', () => {
  it('gives the filter SQL verdict for every chunk, reading a range whole after 4 checks in it, kept across searches of one version', async () => {
    const db = new Database(await buildVersionedIndex(join(scratch, 'verdicts.db')), { readonly: true });
    const where = filterClause({ version: '3.x' }, 'c', { restricted: false });
    const expected = new Set(db.prepare(`SELECT c.id FROM chunks c WHERE 1${where.sql}`).pluck().all(...where.params) as number[]);
    const ids = db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
    expect(ids.length).toBe(900);
    expect(expected.size).toBe(600);
    const verdicts = createFilterVerdicts(createStatementCache(db));
    // Search 1: 3 chunks of the first range of 256 ids, each asked twice: single checks only.
    const first = verdicts(where, 'v1');
    expect([1, 2, 3, 1, 2, 3].map(first)).toEqual([1, 2, 3, 1, 2, 3].map((id) => expected.has(id)));
    // Search 2: the fourth check in that range reads it whole; every id of it is then known.
    const second = verdicts(where, 'v1');
    expect(ids.filter((id) => id < 256).map(second)).toEqual(ids.filter((id) => id < 256).map((id) => expected.has(id)));
    // Every id, in a random order, over many searches: always the SQL's verdict.
    const shuffled = [...ids].sort((a, b) => ((a * 7919) % 901) - ((b * 7919) % 901));
    for (let search = 0; search < 6; search += 1) {
      const passes = verdicts(where, 'v1');
      expect(shuffled.map(passes)).toEqual(shuffled.map((id) => expected.has(id)));
    }
    // Another filter, and the same one at a new version: fresh verdicts, still exact.
    const other = filterClause({ version: '2.x' }, 'c', { restricted: false });
    const otherExpected = new Set(db.prepare(`SELECT c.id FROM chunks c WHERE 1${other.sql}`).pluck().all(...other.params) as number[]);
    expect(ids.map(verdicts(other, 'v1'))).toEqual(ids.map((id) => otherExpected.has(id)));
    expect(ids.map(verdicts(where, 'v2'))).toEqual(ids.map((id) => expected.has(id)));
    db.close();
  });

  it('reads a range only after its fourth check, and then never checks its ids one by one again', async () => {
    const db = new Database(await buildVersionedIndex(join(scratch, 'counts.db')), { readonly: true });
    const where = filterClause({ version: '3.x' }, 'c', { restricted: false });
    const runs = { one: 0, range: 0 };
    const real = createStatementCache(db);
    const statements: StatementCache = {
      get(sql) {
        const statement = real.get(sql);
        if (!sql.includes('INDEXED BY chunks_for_filters')) return statement;
        const kind = sql.includes('c.id >= ?') ? 'range' : 'one';
        return {
          pluck: () => ({
            get: (...args: unknown[]) => ((runs[kind] += 1), statement.pluck().get(...args)),
            all: (...args: unknown[]) => ((runs[kind] += 1), statement.pluck().all(...args)),
          }),
        } as never;
      },
    };
    const verdicts = createFilterVerdicts(statements);
    const passes = verdicts(where, 'v1');
    [10, 11, 12].forEach(passes);
    expect(runs).toEqual({ one: 3, range: 0 });
    passes(300); // another range
    expect(runs).toEqual({ one: 4, range: 0 });
    passes(13); // the fourth check of range 0: read whole
    expect(runs).toEqual({ one: 4, range: 1 });
    Array.from({ length: 256 }, (_, id) => id).forEach(verdicts(where, 'v1'));
    expect(runs).toEqual({ one: 4, range: 1 });
    // A new version forgets the ranges read.
    verdicts(where, 'v2')(10);
    expect(runs).toEqual({ one: 5, range: 1 });
    db.close();
  });
});
