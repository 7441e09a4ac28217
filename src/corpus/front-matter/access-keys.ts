// Front matter keys that look like an access label but are not read as one. `labels.acl` is the
// only key that restricts a page; a near miss (`acl:` at the top, `Labels:`, `labels.ACL`,
// `groups:`) used to be ignored like any unknown field, and the page was indexed public without a
// word. Such keys are problems of the page instead (docs/policy.md, "Access groups").

/** The key that holds every label, access included. */
const LABELS_KEY = 'labels';
/** The label that holds a page's access groups. */
const ACL_KEY = 'acl';
/** Words that name access when they are a key or a word of one (`groups`, `allowed_roles`, `accessGroups`). */
const ACCESS_WORDS = new Set(['acl', 'acls', 'group', 'groups', 'access', 'role', 'roles', 'permission', 'permissions']);

/** What a near-miss key was probably meant to be: `labels.acl` itself, or the `labels` map. */
export type AccessNearMiss = 'acl' | 'labels';

/**
 * Whether a front matter key that Atlas does not read looks like an access label: at the top
 * level (`where: 'top'`) or as a label name (`where: 'labels'`). A key is an `acl` near miss when
 * it is `acl` in another case, one edit from it (`acls`, `alc`: the name is short, so two edits
 * would catch `url` and `app`), or is or holds a word naming access (`groups`, `access`, `roles`,
 * `permissions`, `allowed_groups`, `accessGroups`); a top-level key is a `labels` near miss when it
 * is `labels` in another case or up to two edits from it (`label`, `Labels`, `lables`).
 *
 * @example
 * accessNearMiss('acl', 'top'); // 'acl'
 * accessNearMiss('Label', 'top'); // 'labels'
 * accessNearMiss('ACL', 'labels'); // 'acl'
 * accessNearMiss('acl', 'labels'); // undefined: that is the access label
 * accessNearMiss('sidebar_label', 'top'); // undefined
 */
export function accessNearMiss(key: string, where: 'top' | 'labels'): AccessNearMiss | undefined {
  const lower = key.toLowerCase();
  if (where === 'top' && key !== LABELS_KEY && editDistance(lower, LABELS_KEY) <= 2) return 'labels';
  if (where === 'labels' && key === ACL_KEY) return undefined;
  if (editDistance(lower, ACL_KEY) <= 1) return 'acl';
  const words = key.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).map((word) => word.toLowerCase());
  return words.some((word) => ACCESS_WORDS.has(word)) ? 'acl' : undefined;
}

/**
 * The problems of the groups an `acl` names that no principal can hold: a name with a comma
 * (`"admins, staff"`, two groups written as one) or with spaces around it (`" admins"`). Such a
 * page was readable by no one, and said nothing; it is refused, never rewritten.
 *
 * @example
 * aclGroupProblem(['admins, staff']); // { kind: 'comma', group: 'admins, staff' }
 * aclGroupProblem([' admins']); // { kind: 'spaces', group: ' admins' }
 * aclGroupProblem(['admins', 'site ops']); // undefined
 */
export function aclGroupProblem(groups: readonly string[]): { kind: 'comma' | 'spaces'; group: string } | undefined {
  const comma = groups.find((group) => group.includes(','));
  if (comma !== undefined) return { kind: 'comma', group: comma };
  const spaces = groups.find((group) => group.trim() !== group);
  return spaces === undefined ? undefined : { kind: 'spaces', group: spaces };
}

/** Levenshtein distance with adjacent transpositions counted as one edit (`lables` is one from `labels`). */
function editDistance(left: string, right: string): number {
  if (Math.abs(left.length - right.length) > 2) return 3;
  const rows: number[][] = Array.from({ length: left.length + 1 }, (_, i) => [i, ...Array<number>(right.length).fill(0)]);
  for (let j = 1; j <= right.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[left.length]![right.length]!;
}
