import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { Doc } from '../corpus/types.ts';
import { createTestDoc } from '../index/test-docs.ts';

/**
 * 300 pages of 3 sections each, applying to 2.x, 3.x or all in turn (page n: n % 3); every
 * section of page n names the number n, so a search for it finds that page.
 *
 * @example
 * versionedDocs()[1].appliesTo; // '3.x'
 */
export function versionedDocs(): Doc[] {
  const versions = ['2.x', '3.x', 'all'];
  return Array.from({ length: 300 }, (_, n) =>
    createTestDoc({ docId: `page-${n}`, appliesTo: versions[n % 3], sections: [`Retries back off ${n}.`, `Jobs run ${n} times.`, `Queues hold job ${n}.`] }),
  );
}

/**
 * Writes at `path` an index of {@link versionedDocs} (900 chunks); returns the path.
 *
 * @example
 * const path = await buildVersionedIndex(join(scratch, 'index.db'));
 */
export async function buildVersionedIndex(path: string): Promise<string> {
  const index = createSqliteIndex({ path });
  await index.ingest(versionedDocs());
  await index.close();
  return path;
}
