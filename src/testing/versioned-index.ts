import { createSqliteIndex } from '../index/sqlite.ts';
import { createTestDoc } from '../index/test-docs.ts';

/**
 * Writes at `path` an index of 300 pages of 3 sections each, applying to 2.x, 3.x or all in
 * turn (900 chunks); returns the path.
 *
 * @example
 * const path = await buildVersionedIndex(join(scratch, 'index.db'));
 */
export async function buildVersionedIndex(path: string): Promise<string> {
  const index = createSqliteIndex({ path });
  const versions = ['2.x', '3.x', 'all'];
  await index.ingest(
    Array.from({ length: 300 }, (_, n) =>
      createTestDoc({ docId: `page-${n}`, appliesTo: versions[n % 3], sections: [`Retries back off ${n}.`, `Jobs run ${n} times.`, `Queues hold job ${n}.`] }),
    ),
  );
  await index.close();
  return path;
}
