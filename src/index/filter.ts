import { AtlasError } from '../errors.ts';
import type { Principal, SearchFilter } from './types.ts';

/** The label that restricts a page to principals in one of its groups (front matter `labels.acl`). */
export const ACL_LABEL = 'acl';

/** The label value that matches every filter on that label (like `applies_to: all`). */
export const ALL_VALUE = 'all';

/** SQL conditions (to AND into a WHERE clause) and their positional parameters. */
export interface FilterClause {
  sql: string;
  params: string[];
}

/** Options of {@link filterClause}. */
export interface FilterClauseOptions {
  /**
   * Whether any chunk of the index carries an `acl` label (default true). When false the access
   * condition is left out: it would keep every chunk anyway, and the unfiltered search path stays fast.
   */
  restricted?: boolean;
}

/**
 * Translates a {@link SearchFilter} into SQL over the `chunks` table aliased `alias`:
 * - `version` keeps chunks that apply to it or to "all";
 * - each label keeps chunks whose label has one of the given values or "all", or that lack the
 *   label (every listed label must match);
 * - access: a chunk with an `acl` label is kept only when `principal` is in one of its groups; no
 *   principal means anonymous (public chunks only). Always applied, filter or not.
 *
 * @example
 * filterClause({ version: '3.x' }, 'c', { restricted: false }) // { sql: " AND c.applies_to IN (?, 'all')", params: ['3.x'] }
 */
export function filterClause(filter: SearchFilter | undefined, alias: string, options: FilterClauseOptions = {}): FilterClause {
  let sql = '';
  const params: string[] = [];
  const label = (name: string, values?: string[]) => {
    params.push(name, ...(values ?? []));
    const valueSql = values === undefined ? '' : ` AND l.value IN (${values.map(() => '?').join(', ')})`;
    return `EXISTS (SELECT 1 FROM chunk_labels l WHERE l.chunk_id = ${alias}.chunk_id AND l.name = ?${valueSql})`;
  };
  if (filter?.version !== undefined) {
    sql += ` AND ${alias}.applies_to IN (?, 'all')`;
    params.push(filter.version);
  }
  for (const [name, value] of Object.entries(filter?.labels ?? {})) {
    const values = labelValues(value);
    sql += ` AND (NOT ${label(name)} OR ${label(name, [...values, ALL_VALUE])})`;
  }
  const groups = principalGroups(filter?.principal);
  if (options.restricted !== false) {
    sql += groups.length === 0 ? ` AND NOT ${label(ACL_LABEL)}` : ` AND (NOT ${label(ACL_LABEL)} OR ${label(ACL_LABEL, groups)})`;
  }
  return { sql, params };
}

/**
 * Whether a chunk with these labels passes the label and access parts of `filter` (the same
 * rules as {@link filterClause}, for backends that filter in code, like the in-memory test index).
 *
 * @example
 * passesLabels({ store: 'all' }, { labels: { store: 'Aundh' } }); // true
 * passesLabels({ acl: ['admins'] }, { principal: { groups: ['staff'] } }); // false
 */
export function passesLabels(labels: Record<string, string | string[]>, filter: SearchFilter | undefined): boolean {
  const valuesOf = (name: string) => {
    const have = labels[name];
    return have === undefined ? undefined : Array.isArray(have) ? have : [have];
  };
  for (const [name, wanted] of Object.entries(filter?.labels ?? {})) {
    const have = valuesOf(name);
    const accepted = [...labelValues(wanted), ALL_VALUE];
    if (have !== undefined && !have.some((value) => accepted.includes(value))) return false;
  }
  const acl = valuesOf(ACL_LABEL);
  const groups = principalGroups(filter?.principal);
  return acl === undefined || acl.some((group) => groups.includes(group));
}

/**
 * The groups of a principal, checked: a list of non-empty strings. Undefined means anonymous (no groups).
 *
 * @example
 * principalGroups({ groups: ['staff'] }); // ['staff']
 */
export function principalGroups(principal: Principal | undefined): string[] {
  if (principal === undefined) return [];
  const groups: unknown = (principal as { groups?: unknown } | null)?.groups;
  if (!Array.isArray(groups) || groups.some((group) => typeof group !== 'string' || group.trim() === '')) {
    throw new AtlasError(
      'usage',
      `Atlas: principal.groups must be a list of non-empty group names, got ${JSON.stringify(groups)}. Pass e.g. { groups: ["staff"] } (or { groups: [] } for public pages only).`,
    );
  }
  return groups as string[];
}

/**
 * Throws when a chunk's `acl` label names no group (an empty list or an empty name): it would be
 * stored as no group at all and the chunk would read as public. Every backend checks this before
 * writing anything; front matter validation reports the same mistake with its line.
 *
 * @example
 * assertAclLabels([doc]); // AtlasError: Atlas: chunk "vault#0" (vault.md) has labels.acl [] ...
 */
export function assertAclLabels(docs: ReadonlyArray<{ chunks: ReadonlyArray<{ chunkId: string; sourcePath: string; labels: Record<string, string | string[]> }> }>): void {
  for (const doc of docs) {
    for (const chunk of doc.chunks) {
      const acl = chunk.labels[ACL_LABEL];
      if (acl === undefined) continue;
      const groups = labelValues(acl);
      if (groups.length > 0 && groups.every((group) => typeof group === 'string' && group.trim() !== '')) continue;
      throw new AtlasError(
        'invalid-corpus',
        `Atlas: chunk "${chunk.chunkId}" (${chunk.sourcePath}) has labels.acl ${JSON.stringify(acl)}, which names no group; nothing was written to the index. Name at least one group (acl: ["staff"]), or remove acl to make the page public.`,
      );
    }
  }
}

function labelValues(value: string | string[]): string[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * `filter` with `principal` enforced: its groups, or only those also in `filter.principal`
 * (the filter every tool of a session applies).
 *
 * @example
 * withPrincipal({ version: '3.x' }, { groups: ['staff'] }); // { version: '3.x', principal: { groups: ['staff'] } }
 */
export function withPrincipal(filter: SearchFilter | undefined, principal: Principal | undefined): SearchFilter | undefined {
  if (principal === undefined) return filter;
  const groups = principalGroups(principal);
  const fixed = filter?.principal === undefined ? undefined : principalGroups(filter.principal);
  return { ...filter, principal: { groups: fixed === undefined ? [...groups] : groups.filter((group) => fixed.includes(group)) } };
}
