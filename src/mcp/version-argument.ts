import type { IndexBackend } from '../index/types.ts';

/**
 * Checks the `version` argument of search_docs and ask: it may narrow a search to a release
 * line, never move it off the one the server enforces, and it must be a release line of the
 * index (a typo such as "3" would silently match only the pages for all versions). Returns why
 * the argument is refused, or undefined when it is allowed (or absent).
 *
 * @example
 * await versionRefusal(index, '2.x', '3.x'); // 'version "2.x" refused: this server only searches version "3.x" (and pages for all versions). Omit version, or pass "3.x".'
 * await versionRefusal(index, '3', undefined); // 'version "3" is not a release line of these docs (known: 2.x, 3.x). Pass one of them, or omit version.'
 * await versionRefusal(index, '3.x', '3.x'); // undefined
 */
export async function versionRefusal(index: IndexBackend, version: string | undefined, fixedVersion: string | undefined): Promise<string | undefined> {
  if (version === undefined || version === '' || version === fixedVersion) return undefined;
  if (fixedVersion !== undefined) {
    return `version ${JSON.stringify(version)} refused: this server only searches version ${JSON.stringify(fixedVersion)} (and pages for all versions). Omit version, or pass ${JSON.stringify(fixedVersion)}.`;
  }
  if (index.releaseLines === undefined) return undefined;
  const known = await index.releaseLines();
  if (known.includes(version)) return undefined;
  if (known.length === 0) return `version ${JSON.stringify(version)} refused: these docs have no release lines (every page applies to all versions). Omit version.`;
  return `version ${JSON.stringify(version)} is not a release line of these docs (known: ${known.join(', ')}). Pass one of them, or omit version.`;
}
