import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../corpus/index.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';

/** The prompt-injection test pages (src/testing/__fixtures__/injection/docs; README.md beside them). */
export const INJECTION_DOCS = fileURLToPath(new URL('./__fixtures__/injection/docs', import.meta.url));

/**
 * An in-memory SQLite index of the prompt-injection pages: public pages of 3.x and all versions
 * whose text carries injected instructions, a 2.x page, and two pages restricted to admins. The
 * caller closes it. `docIds` keeps only those pages (a smaller corpus for one scenario).
 *
 * @example
 * const index = await createInjectionIndex();
 * const retention = await createInjectionIndex({ docIds: ['retention-policy', 'retention-faq'] });
 * await agenticRun('How long do worker leases last?', { model: createObedientModel(), index });
 */
export async function createInjectionIndex(options: { docIds?: string[] } = {}): Promise<IndexBackend> {
  const index = createSqliteIndex({ path: ':memory:' });
  const { docs } = await loadCorpus(INJECTION_DOCS);
  await index.ingest(options.docIds ? docs.filter((doc) => options.docIds!.includes(doc.docId)) : docs);
  return index;
}
