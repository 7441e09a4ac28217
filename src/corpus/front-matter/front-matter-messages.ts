import { DOC_ID_PATTERN } from '../markdown/slug.ts';
import { aclGroupProblem, accessNearMiss } from './access-keys.ts';

/**
 * Explains why a front matter value was rejected: the field, the bad value and the fix.
 * `path` is `['id']`, `['title']`, `['applies_to']`, `['labels']` or `['labels', name]`;
 * `subject` names the YAML in messages (default `front matter`; `folder rule`).
 *
 * @example
 * describeIssue(['applies_to'], 3, 'install');
 * // 'applies_to must be a string such as "3.x" or "all", got 3. Quote it: applies_to: "3.x".'
 */
export function describeIssue(path: string[], value: unknown, derivedId: string, subject = 'front matter'): string {
  const [field, label] = path;
  if (field === 'id') return describeId(value, derivedId);
  if (field === 'title') return describeTitle(value);
  if (field === 'applies_to') return describeAppliesTo(value);
  if (field === 'labels' && label !== undefined) return describeLabel(label, value);
  if (field === 'labels') {
    return `labels must be a map from label name to a string or a list of strings, got ${show(value)}. Write e.g. labels: { team: "payments", acl: ["staff"] }.`;
  }
  if (field !== undefined && path.length === 1) {
    const nearMiss = accessNearMiss(field, 'top');
    if (nearMiss === 'labels') {
      return `${subject} key "${field}" is not read, so its labels restrict and filter nothing; labels go under the key labels: ${labelsFlow(value)}. Rename it to labels.`;
    }
    if (nearMiss === 'acl') {
      return `${subject} key "${field}" is not read, so it restricts nothing; access groups go under labels: {acl: ${groupsFlow(value)}}. Move them there, or rename the key if it is not about access.`;
    }
  }
  return `${path.join('.')} is invalid, got ${show(value)}.`;
}

function describeId(value: unknown, derivedId: string): string {
  if (typeof value === 'string') {
    const suggestion = sanitizeId(value) || derivedId || 'my-page';
    return `id must start with a letter or digit and use only letters, digits, ".", "_" and "-", got ${show(value)}. Use e.g. id: "${suggestion}".`;
  }
  if (isScalar(value) && DOC_ID_PATTERN.test(String(value))) {
    return `id must be a string, got ${show(value)}. Quote it: id: "${String(value)}".`;
  }
  const example = derivedId || 'my-page';
  return `id must be a string, got ${show(value)}. Write e.g. id: "${example}", or remove the field to derive the id from the file path.`;
}

function describeTitle(value: unknown): string {
  if (typeof value === 'string') {
    return `title must be a non-empty string, got ${show(value)}. Write a title, or remove the field to use the first "# " heading.`;
  }
  if (isScalar(value)) return `title must be a string, got ${show(value)}. Quote it: title: "${String(value)}".`;
  return `title must be a string, got ${show(value)}. Write one line of text, e.g. title: "Getting started".`;
}

function describeAppliesTo(value: unknown): string {
  const head = `applies_to must be a string such as "3.x" or "all", got ${show(value)}.`;
  if (typeof value === 'number') {
    const suggestion = Number.isInteger(value) ? `${value}.x` : String(value);
    return `${head} Quote it: applies_to: "${suggestion}".`;
  }
  if (typeof value === 'string') return `${head} Write e.g. applies_to: "3.x", or remove the field to apply to all versions.`;
  return `${head} Write one release line, e.g. applies_to: "3.x", or applies_to: "all" for every version.`;
}

function describeLabel(name: string, value: unknown): string {
  const strings = typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
  if (name === 'acl' && strings && [value].flat().some((group) => String(group).trim().toLowerCase() === 'all')) {
    return `labels.acl lists the groups that may read the page; "all" is not one of them (it would hide the page from everyone outside a group named "all"), got ${show(value)}. Remove acl to make the page public, or name the groups, e.g. acl: ["staff"].`;
  }
  if (name === 'acl' && strings) {
    const groups = [value].flat() as string[];
    const problem = groups.length === 0 || groups.some((group) => group.trim() === '') ? undefined : aclGroupProblem(groups);
    if (problem?.kind === 'comma') {
      return `labels.acl names one group ${JSON.stringify(problem.group)}, which holds a comma: groups are a list, not comma-separated. List each group: acl: ${groupsFlow(value)}.`;
    }
    if (problem?.kind === 'spaces') {
      return `labels.acl names the group ${JSON.stringify(problem.group)}, with spaces around it, which no principal has (group names are trimmed). Write acl: ${groupsFlow(value)}.`;
    }
    return `labels.acl must name at least one group (no empty names), got ${show(value)}. Write e.g. acl: ["staff"], or remove acl to make the page public.`;
  }
  if (accessNearMiss(name, 'labels') === 'acl') {
    return `labels.${name} is not read as access groups (only labels.acl is), so it restricts nothing; write acl: ${groupsFlow(value)}. Rename it to acl, or rename the label if it is not about access.`;
  }
  const head = `labels.${name} must be a string or a list of strings, got ${show(value)}.`;
  if (isScalar(value)) return `${head} Quote it: ${name}: "${String(value)}".`;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || isScalar(item))) {
    const quoted = value.map((item) => JSON.stringify(String(item))).join(', ');
    return `${head} Quote every item: ${name}: [${quoted}].`;
  }
  return `${head} Write e.g. ${name}: "staff" or ${name}: ["staff", "admins"].`;
}

/**
 * The groups a misplaced access value names, as a YAML flow list for a suggested fix: comma
 * strings split, names trimmed, `[staff]` when it names none.
 *
 * @example
 * groupsFlow(['admins, staff']); // '[admins, staff]'
 */
function groupsFlow(value: unknown): string {
  const names = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
  const groups = [...new Set(names.flatMap((name) => name.split(',')).map((name) => name.trim()).filter((name) => name !== ''))];
  return `[${(groups.length === 0 ? ['staff'] : groups).map(flowScalar).join(', ')}]`;
}

/** A misplaced labels map as a YAML flow map for a suggested fix, access near misses written as acl. */
function labelsFlow(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '{acl: [staff]}';
  const entries = Object.entries(value).map(([name, item]) => {
    if (name === 'acl' || accessNearMiss(name, 'labels') === 'acl') return `acl: ${groupsFlow(item)}`;
    if (typeof item === 'string') return `${name}: ${flowScalar(item)}`;
    if (Array.isArray(item)) return `${name}: [${item.map((part) => flowScalar(String(part))).join(', ')}]`;
    return `${name}: ${JSON.stringify(item)}`;
  });
  return `{${entries.join(', ')}}`;
}

/** A string as YAML reads it back: bare when it is a plain word, else double-quoted. */
function flowScalar(text: string): string {
  return /^[A-Za-z][A-Za-z0-9 _./@-]*$/.test(text) && !/^(?:true|false|null|yes|no|on|off)$/i.test(text) && text.trim() === text ? text : JSON.stringify(text);
}

/** Numbers and booleans: values that become valid by quoting them. */
function isScalar(value: unknown): value is number | boolean {
  return typeof value === 'number' || typeof value === 'boolean';
}

/** A value as it should appear in a message: JSON, cut to 60 characters. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function sanitizeId(value: string): string {
  return value
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '');
}
