import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../corpus/index.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';

/** The bundled Orbit demo docs (datasets/orbit/docs of the checkout). */
export const ORBIT_DOCS = fileURLToPath(new URL('../../datasets/orbit/docs', import.meta.url));

/**
 * An in-memory SQLite index of the Orbit demo docs, for tests that run the agent on real pages.
 * The caller closes it.
 *
 * @example
 * const index = await createOrbitIndex();
 * await index.search('ORB-1202', { k: 1 });
 */
export async function createOrbitIndex(): Promise<IndexBackend> {
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(ORBIT_DOCS)).docs);
  return index;
}
