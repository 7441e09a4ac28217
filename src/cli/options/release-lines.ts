import type { IndexBackend } from '../../index/types.ts';

/**
 * Notes about a `--version` the index does not know: the filter still applies (only pages for
 * all versions match), but a typo such as `--version 3` should not pass silently. Empty when
 * no version is given, when the backend cannot list its release lines, or when the line is known.
 *
 * @example
 * await releaseLineNotes(index, '3'); // ['--version "3" is not a release line of this index (known: 2.x, 3.x); only pages for all versions match.']
 */
export async function releaseLineNotes(index: IndexBackend, version: string | undefined): Promise<string[]> {
  if (version === undefined || index.releaseLines === undefined) return [];
  const known = await index.releaseLines();
  if (known.includes(version)) return [];
  const list = known.length === 0 ? 'none: every page applies to all versions' : `known: ${known.join(', ')}`;
  return [`--version "${version}" is not a release line of this index (${list}); only pages for all versions match.`];
}
