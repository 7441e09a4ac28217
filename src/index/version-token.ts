import { quoteTerm } from './query.ts';

/**
 * The token that stands for one `applies_to` value in the FTS table's `versions` column: `v`
 * and the value's UTF-8 bytes as three-digit numbers, so any value is one token the unicode61
 * tokenizer keeps whole and Porter stemming leaves alone (`3.x` -> `v051046120`).
 *
 * @example
 * versionToken('3.x') // 'v051046120'
 */
export function versionToken(appliesTo: string): string {
  return `v${Array.from(Buffer.from(appliesTo, 'utf8'), (byte) => String(byte).padStart(3, '0')).join('')}`;
}

/**
 * The MATCH expression of `match` kept to the chunks that apply to `version` or to "all", the
 * version filter done inside FTS5 (a doclist intersection) rather than row by row in SQL.
 * The `versions` column has weight 0 in bm25(), so scores are those of `match` alone.
 *
 * @example
 * versionMatch('"lease"', '3.x') // '("lease") AND versions : ("v051046120" OR "v097108108")'
 */
export function versionMatch(match: string, version: string): string {
  const tokens = [...new Set([versionToken(version), versionToken('all')])].map(quoteTerm);
  return `(${match}) AND versions : (${tokens.join(' OR ')})`;
}
