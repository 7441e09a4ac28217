import type { SearchFilter } from './types.ts';

/** SQL conditions (to AND into a WHERE clause) and their positional parameters. */
export interface FilterClause {
  sql: string;
  params: string[];
}

/**
 * Translates a {@link SearchFilter} into SQL over the `chunks` table aliased `alias`:
 * `version` keeps chunks that apply to it or to "all"; each label keeps chunks that carry that
 * label with one of the given values (every listed label must match; an empty list matches none).
 *
 * @example
 * filterClause({ version: '3.x' }, 'c') // { sql: " AND c.applies_to IN (?, 'all')", params: ['3.x'] }
 */
export function filterClause(filter: SearchFilter | undefined, alias: string): FilterClause {
  let sql = '';
  const params: string[] = [];
  if (filter?.version !== undefined) {
    sql += ` AND ${alias}.applies_to IN (?, 'all')`;
    params.push(filter.version);
  }
  for (const [name, value] of Object.entries(filter?.labels ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0) {
      sql += ' AND 0';
      continue;
    }
    sql +=
      ` AND EXISTS (SELECT 1 FROM chunk_labels l WHERE l.chunk_id = ${alias}.chunk_id` +
      ` AND l.name = ? AND l.value IN (${values.map(() => '?').join(', ')}))`;
    params.push(name, ...values);
  }
  return { sql, params };
}
