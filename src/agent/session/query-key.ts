/**
 * The normalised form of a search: its lowercased token set plus the version, so that
 * "Lease timeout 3.x" and "timeout lease" (at version 3.x) count as the same query.
 *
 * @example
 * queryKey('Lease  timeout', '3.x') === queryKey('timeout lease', '3.x'); // true
 */
export function queryKey(query: string, version: string | undefined): string {
  const tokens = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+(?:[._-][\p{L}\p{N}]+)*/gu) ?? [])].sort();
  return `${tokens.join(' ')}@${version ?? '*'}`;
}
