import { createHash } from 'node:crypto';
import type { TokenizerOptions } from './analysis/tokenize.ts';

/**
 * The index version: sha256 over the tokenizer settings and the sorted `docId:contentHash`
 * pairs. Same documents and settings give the same version whatever the ingest order; any added,
 * changed or removed document gives another.
 *
 * @example
 * computeIndexVersion([{ docId: 'a', contentHash: 'h1' }], DEFAULT_TOKENIZER) // '3f5c…' (64 hex digits)
 */
export function computeIndexVersion(
  docs: ReadonlyArray<{ docId: string; contentHash: string }>,
  tokenizer: TokenizerOptions,
): string {
  const hash = createHash('sha256');
  hash.update(`tokenizer porter=${tokenizer.porter} identifiers=${tokenizer.identifiers}\n`);
  const pairs = docs.map((doc) => `${doc.docId}:${doc.contentHash}`).sort();
  for (const pair of pairs) hash.update(`${pair}\n`);
  return hash.digest('hex');
}
