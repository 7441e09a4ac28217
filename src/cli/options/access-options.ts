import { InvalidArgumentError, Option } from 'commander';
import { AtlasError } from '../../errors.ts';
import { ACL_LABEL } from '../../index/filter.ts';
import type { Principal, SearchFilter } from '../../index/types.ts';

/** What {@link groupsOption} and {@link labelOption} leave in the parsed options. */
export interface AccessOptions {
  version?: string;
  groups?: string[];
  label?: Record<string, string[]>;
}

/**
 * `--groups a,b`: the access groups of whoever asks. Pages whose `labels.acl` names none of them
 * are never found; without `--groups` (or `ATLAS_GROUPS`) only public pages are.
 *
 * @example
 * command.addOption(groupsOption()); // atlas search --groups staff,admins "vault"
 */
export function groupsOption(): Option {
  return new Option('--groups <a,b>', 'access groups of the asker (default: ATLAS_GROUPS; neither = public pages only)').argParser((value: string) => {
    const parsed = parseGroups(value);
    if (!parsed.ok) throw new InvalidArgumentError(`--groups ${parsed.error}`);
    return parsed.groups;
  });
}

/**
 * `--label name=x,y` (repeatable): keeps pages whose `name` label is x or y or "all", or that have
 * no `name` label. Repeating a name adds values (`--label store=A --label store=B` = `store=A,B`);
 * different names must all match.
 *
 * @example
 * command.addOption(labelOption()); // atlas search --label store=Aundh "plum cake"
 */
export function labelOption(): Option {
  return new Option('--label <name=values>', 'keep pages whose label is one of these values or "all", or that lack it (repeatable)').argParser(
    (value: string, previous: Record<string, string[]> | undefined) => {
      const parsed = parseLabel(value);
      const labels = { ...previous };
      labels[parsed.name] = [...new Set([...(labels[parsed.name] ?? []), ...parsed.values])];
      return labels;
    },
  );
}

/**
 * The principal of a command: `--groups`, else `ATLAS_GROUPS` (comma-separated), else none
 * (anonymous: public pages only). A malformed `ATLAS_GROUPS` is a usage error naming it.
 *
 * @example
 * resolvePrincipal({ ATLAS_GROUPS: 'staff' }, undefined); // { groups: ['staff'] }
 */
export function resolvePrincipal(env: Record<string, string | undefined>, groups: string[] | undefined): Principal | undefined {
  if (groups !== undefined) return { groups };
  const raw = env.ATLAS_GROUPS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const parsed = parseGroups(raw);
  if (!parsed.ok) throw new AtlasError('usage', `Atlas: ATLAS_GROUPS ${parsed.error} Or unset it for public pages only.`);
  return { groups: parsed.groups };
}

/**
 * The filter of `--version`, `--label`, `--groups`/`ATLAS_GROUPS`; undefined when none is set.
 *
 * @example
 * cliFilter({}, { version: '3.x', label: { store: ['Aundh'] } }); // { version: '3.x', labels: { store: ['Aundh'] } }
 */
export function cliFilter(env: Record<string, string | undefined>, options: AccessOptions): SearchFilter | undefined {
  const principal = resolvePrincipal(env, options.groups);
  const filter: SearchFilter = {
    ...(options.version ? { version: options.version } : {}),
    ...(options.label ? { labels: options.label } : {}),
    ...(principal ? { principal } : {}),
  };
  return Object.keys(filter).length === 0 ? undefined : filter;
}

function parseGroups(value: string): { ok: true; groups: string[] } | { ok: false; error: string } {
  const groups = value.split(',').map((group) => group.trim());
  if (groups.some((group) => group === '')) {
    return { ok: false, error: `must be group names separated by commas, got "${value}" (e.g. staff,admins).` };
  }
  return { ok: true, groups: [...new Set(groups)] };
}

function parseLabel(value: string): { name: string; values: string[] } {
  const at = value.indexOf('=');
  const name = at < 0 ? '' : value.slice(0, at).trim();
  const values = at < 0 ? [] : value.slice(at + 1).split(',').map((item) => item.trim());
  if (name === '' || values.some((item) => item === '')) {
    throw new InvalidArgumentError(`--label must be name=value or name=value1,value2, got "${value}" (e.g. --label store=Aundh).`);
  }
  if (name === ACL_LABEL) {
    throw new InvalidArgumentError(`--label ${value}: access is not a label filter; pass the asker's groups with --groups ${values.join(',')} (or ATLAS_GROUPS).`);
  }
  return { name, values };
}
