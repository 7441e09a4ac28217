/** Filter SQL with `?` placeholders, as filter.ts writes it. */
export type FilterSql = { sql: string; params: string[] };

/**
 * `clause` with its `?` placeholders numbered `$after+1`, `$after+2`, ... (filter.ts writes `?`
 * for SQLite; its SQL holds no other `?`: every value is a parameter).
 *
 * @example
 * positional({ sql: ' AND c.applies_to IN (?, \'all\')', params: ['3.x'] }, 2).sql // " AND c.applies_to IN ($3, 'all')"
 */
export function positional(clause: FilterSql, after: number): FilterSql {
  let next = after;
  return { sql: clause.sql.replace(/\?/g, () => `$${(next += 1)}`), params: clause.params };
}
