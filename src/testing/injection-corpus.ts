import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../corpus/index.ts';
import { createSqliteIndex } from '../index/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';

/** The prompt-injection test pages (src/testing/__fixtures__/injection/docs; README.md beside them). */
export const INJECTION_DOCS = fileURLToPath(new URL('./__fixtures__/injection/docs', import.meta.url));

/**
 * An in-memory SQLite index of the prompt-injection pages: public pages of 3.x and all versions
 * whose text carries injected instructions, a 2.x page, and two pages restricted to admins. The
 * caller closes it.
 *
 * @example
 * const index = await createInjectionIndex();
 * await agenticRun('How long do worker leases last?', { model: createObedientModel(), index });
 */
export async function createInjectionIndex(): Promise<IndexBackend> {
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(INJECTION_DOCS)).docs);
  return index;
}
