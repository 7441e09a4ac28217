// What a request may ask for itself (a release line, label values) narrows the filter the server
// enforces (`atlas serve --version/--label`) and never widens it; the principal is the token's.
import { z } from 'zod';
import type { LabelValue } from '../corpus/types.ts';
import { ACL_LABEL, ALL_VALUE } from '../index/filter.ts';
import type { Principal, SearchFilter } from '../index/types.ts';
import { ApiError } from './http.ts';

/** The filter fields a request body or query string may carry. */
export interface RequestedFilter {
  version?: string;
  labels?: Record<string, string[]>;
}

const labelName = z.string().trim().min(1, { error: 'a label name must not be empty' });
const labelValue = z.string().trim().min(1, { error: 'a label value must not be empty, e.g. "Aundh"' });

/** `version` and `labels` of a request body, as zod fields (labels: `{ name: value | [values] }`). */
export const requestedFilterFields = {
  version: z.string({ error: 'must be a release line, e.g. "3.x"' }).trim().min(1, { error: 'must not be empty; leave it out for every version the server allows' }).optional(),
  labels: z
    .record(labelName, z.union([labelValue.transform((value) => [value]), z.array(labelValue).min(1, { error: 'must list at least one value' })], { error: 'must be a value or a list of values, e.g. "Aundh" or ["Aundh", "Baner"]' }), {
      error: 'must be an object of label values, e.g. { "store": "Aundh" }',
    })
    .optional(),
};

/** Query parameters that would claim access groups; no read route takes them. */
const ACCESS_PARAMETERS = ['groups', 'group', 'principal', 'acl'];

/**
 * Refuses a query string that claims access groups (`?groups=admins`, `?principal=`, `?acl=`)
 * with the same 400 on every read route: the groups of a request come from its token. A route
 * that ignored such a parameter would let a client believe it read as admins.
 *
 * @example
 * refuseAccessParameters(['q', 'groups']); // throws ApiError 400: "Atlas: groups: access is not a query parameter; ..."
 */
export function refuseAccessParameters(names: Iterable<string>): void {
  for (const name of names) {
    if (!ACCESS_PARAMETERS.includes(name)) continue;
    throw new ApiError(400, 'invalid-request', `Atlas: ${name}: access is not a query parameter; the groups of a request come from its bearer token (the auth file of the server, docs/server.md). Leave ${name} out.`);
  }
}

/**
 * The filter of one request: the server's filter narrowed by what the request asks, with the
 * principal of its token. A narrowing is the intersection of both: a request for another
 * release line than the server's keeps only pages for all versions (`version: 'all'`); label
 * values outside the server's keep only the server's values that were asked, or pages for all
 * values of that label. Each such case adds a note saying what matched. `labels.acl` is refused:
 * access comes from the token.
 *
 * @example
 * narrowFilter({ version: '3.x' }, { labels: { store: ['Aundh'] } }, { groups: ['staff'] });
 * // { filter: { version: '3.x', labels: { store: ['Aundh'] }, principal: { groups: ['staff'] } }, notes: [] }
 */
export function narrowFilter(server: SearchFilter | undefined, requested: RequestedFilter, principal: Principal | undefined): { filter: SearchFilter | undefined; notes: string[] } {
  const notes: string[] = [];
  const version = narrowVersion(server?.version, requested.version, notes);
  const labels = narrowLabels(server?.labels ?? {}, requested.labels ?? {}, notes);
  const filter: SearchFilter = {
    ...(version === undefined ? {} : { version }),
    ...(Object.keys(labels).length === 0 ? {} : { labels }),
    ...(principal === undefined ? {} : { principal }),
  };
  return { filter: Object.keys(filter).length === 0 ? undefined : filter, notes };
}

function narrowVersion(server: string | undefined, requested: string | undefined, notes: string[]): string | undefined {
  if (requested === undefined || requested === server) return server;
  if (server === undefined) return requested;
  notes.push(`version "${requested}" is outside the server's release line "${server}"; only pages for all versions match.`);
  return ALL_VALUE;
}

function narrowLabels(server: Record<string, LabelValue>, requested: Record<string, string[]>, notes: string[]): Record<string, LabelValue> {
  if (Object.hasOwn(requested, ACL_LABEL)) {
    throw new ApiError(400, 'invalid-request', `Atlas: labels.${ACL_LABEL}: access is not a label filter; the groups of a request come from its bearer token (the auth file of the server, docs/server.md). Leave labels.${ACL_LABEL} out.`);
  }
  const labels: Record<string, LabelValue> = { ...server };
  for (const [name, values] of Object.entries(requested)) {
    const allowed = server[name];
    if (allowed === undefined) {
      labels[name] = values;
      continue;
    }
    const allowedValues = [allowed].flat();
    // "all" is a narrowing too: it keeps only the pages for every value of the label.
    const kept = values.filter((value) => allowedValues.includes(value) || value === ALL_VALUE);
    const outside = values.filter((value) => !kept.includes(value));
    if (outside.length > 0) {
      const fallback = kept.length === 0 ? `pages for all values of "${name}" match` : `only ${kept.join(', ')} match`;
      notes.push(`labels.${name}: ${outside.map((value) => JSON.stringify(value)).join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the server's filter (${allowedValues.join(', ')}); ${fallback}.`);
    }
    labels[name] = kept.length === 0 ? [ALL_VALUE] : kept;
  }
  return labels;
}
