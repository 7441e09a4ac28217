import type { Doc } from '../corpus/types.ts';
import { AtlasError } from '../errors.ts';

/**
 * Throws when two documents of one ingest share an id, naming both files: every backend checks
 * this before writing anything. `seen` (doc id -> source path) carries the documents of earlier
 * batches of the same ingest, and gains those of `docs`.
 *
 * @example
 * assertUniqueDocIds([retries, { ...otherPage, docId: 'retries' }]);
 * // AtlasError: Atlas: two documents have the id "retries" (retries.md and guides/retries.md); ...
 */
export function assertUniqueDocIds(docs: readonly Pick<Doc, 'docId' | 'sourcePath'>[], seen: Map<string, string> = new Map()): void {
  for (const doc of docs) {
    const firstPath = seen.get(doc.docId);
    if (firstPath !== undefined) {
      throw new AtlasError(
        'invalid-corpus',
        `Atlas: two documents have the id "${doc.docId}" (${firstPath} and ${doc.sourcePath}); nothing was written to the index. Give each page a unique id in its front matter.`,
      );
    }
    seen.set(doc.docId, doc.sourcePath);
  }
}
