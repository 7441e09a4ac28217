import type { Doc } from '../corpus/types.ts';
import { AtlasError } from '../errors.ts';

/**
 * Throws when two documents of one ingest share an id, naming both files: every backend checks
 * this before writing anything.
 *
 * @example
 * assertUniqueDocIds([retries, { ...otherPage, docId: 'retries' }]);
 * // AtlasError: Atlas: two documents have the id "retries" (retries.md and guides/retries.md); ...
 */
export function assertUniqueDocIds(docs: readonly Doc[]): void {
  const byId = new Map<string, Doc>();
  for (const doc of docs) {
    const first = byId.get(doc.docId);
    if (first !== undefined) {
      throw new AtlasError(
        'invalid-corpus',
        `Atlas: two documents have the id "${doc.docId}" (${first.sourcePath} and ${doc.sourcePath}); nothing was written to the index. Give each page a unique id in its front matter.`,
      );
    }
    byId.set(doc.docId, doc);
  }
}
