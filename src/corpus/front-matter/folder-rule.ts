import type { CorpusProblem } from '../../errors.ts';
import type { LabelValue } from '../types.ts';
import { fieldPath, frontMatterSchema, schemaProblems } from './front-matter.ts';
import { compilePathGlob } from './path-glob.ts';
import { readYamlMap, type YamlMap } from './yaml-map.ts';

/** The name of a folder rule: `_atlas.yaml` in any folder of the docs gives its fields to every page under that folder. */
export const FOLDER_RULE_FILE = '_atlas.yaml';

/** What a folder rule (or one of its overrides) gives the pages it applies to. */
export interface FolderRuleFields {
  applies_to?: string;
  labels?: Record<string, LabelValue>;
}

/** A validated folder rule: its fields, then its overrides in order. */
export interface FolderRule {
  /** The rule's path relative to the docs root (`internal/_atlas.yaml`). */
  file: string;
  /** The folder it rules, relative to the docs root (`internal`; `''` for the root). */
  folder: string;
  fields: FolderRuleFields;
  overrides: Array<{ match: string; matches: (relativePath: string) => boolean; fields: FolderRuleFields }>;
}

const RULE_KEYS = new Set(['applies_to', 'labels', 'overrides']);
const OVERRIDE_KEYS = new Set(['match', 'applies_to', 'labels']);
/** The fields of a page a folder rule gives. */
const FIELD_KEYS = new Set(['applies_to', 'labels']);

/**
 * Parses and validates a folder rule with the front matter's schema (the same messages, the
 * access near misses refused): `applies_to`, `labels` and `overrides`, a list of `{ match,
 * applies_to?, labels? }` whose `match` is a glob of paths below the folder (see
 * `compilePathGlob`). `id` and `title` are per page and refused, as is any other key: the file
 * is Atlas's alone, so an unknown key is a typo that would leave pages without what it meant.
 * Every problem names the rule file and the line.
 *
 * @example
 * parseFolderRule({ file: 'internal/_atlas.yaml', yaml: 'labels:\n  acl: [staff]\n' });
 * // { ok: true, rule: { file: 'internal/_atlas.yaml', folder: 'internal', fields: { labels: { acl: ['staff'] } }, overrides: [] } }
 */
export function parseFolderRule(input: { file: string; yaml: string }): { ok: true; rule: FolderRule } | { ok: false; problems: CorpusProblem[] } {
  const { file } = input;
  const read = readYamlMap({ file, yaml: input.yaml, yamlStartLine: 1, subject: 'folder rule' });
  if (!read.ok) return { ok: false, problems: [read.problem] };
  const { data, lineOf } = read.map;
  const problems: CorpusProblem[] = [];
  const fields = checkFields(data, { file, lineOf, prefix: [], keys: RULE_KEYS, problems });
  const overrides: FolderRule['overrides'] = [];
  const list = data.overrides;
  if (list !== undefined && !Array.isArray(list)) {
    problems.push(problemAt(file, lineOf(['overrides']), 'overrides', `overrides must be a list of { match, labels, applies_to }, got ${show(list)}. Write e.g. overrides: [{ match: "*.pdf", labels: { acl: [staff] } }].`));
  }
  (Array.isArray(list) ? list : []).forEach((item: unknown, position) => {
    const prefix = ['overrides', position] as const;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(problemAt(file, lineOf(prefix), fieldPath(prefix), `an override must be a map with match and labels or applies_to, got ${show(item)}. Write e.g. - match: "*.pdf"`));
      return;
    }
    const entry = item as Record<string, unknown>;
    const before = problems.length;
    const overrideFields = checkFields(entry, { file, lineOf, prefix, keys: OVERRIDE_KEYS, problems });
    const match = entry.match;
    const glob = typeof match === 'string' ? compilePathGlob(match) : undefined;
    if (glob === undefined || !glob.ok) {
      const reason = glob === undefined ? `it must be a glob string, got ${show(match)}` : `${show(match)} is not a glob Atlas reads: ${glob.reason}`;
      problems.push(problemAt(file, lineOf([...prefix, 'match']) ?? lineOf(prefix), `${fieldPath(prefix)}.match`, `override match: ${reason}. Write a pattern of paths below the folder, e.g. match: "*.pdf" or match: "runbooks/**".`));
    } else if (problems.length > before) {
      return;
    } else if (overrideFields.applies_to === undefined && overrideFields.labels === undefined) {
      problems.push(problemAt(file, lineOf(prefix), fieldPath(prefix), `the override of ${show(match)} gives nothing. Add labels or applies_to to it, or delete it.`));
    } else {
      overrides.push({ match: match as string, matches: glob.matches, fields: overrideFields });
    }
  });
  if (problems.length > 0) return { ok: false, problems: problems.sort((left, right) => (left.line ?? Infinity) - (right.line ?? Infinity)) };
  const slash = file.lastIndexOf('/');
  return { ok: true, rule: { file, folder: slash === -1 ? '' : file.slice(0, slash), fields, overrides } };
}

interface FieldCheck {
  file: string;
  lineOf: YamlMap['lineOf'];
  prefix: ReadonlyArray<string | number>;
  keys: ReadonlySet<string>;
  problems: CorpusProblem[];
}

/** Checks the fields of a rule or an override with the front matter's schema, and refuses the keys a folder rule does not hold. */
function checkFields(data: Record<string, unknown>, check: FieldCheck): FolderRuleFields {
  const { file, lineOf, prefix, problems } = check;
  const name = (key: string) => (prefix.length === 0 ? key : `${fieldPath(prefix)}.${key}`);
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id' || key === 'title') {
      problems.push(problemAt(file, lineOf([...prefix, key]), name(key), `${key} is given per page, got ${show(value)}: a folder rule gives its fields to every page under it. Remove it from the folder rule; set the ${key} in a page's front matter or sidecar.`));
    } else if (FIELD_KEYS.has(key) || !check.keys.has(key)) {
      rest[key] = value;
    }
  }
  const result = frontMatterSchema.safeParse(rest);
  const flagged = new Set(result.success ? [] : result.error.issues.map((issue) => String(issue.path[0])));
  for (const key of Object.keys(rest)) {
    if (FIELD_KEYS.has(key) || flagged.has(key)) continue;
    problems.push(problemAt(file, lineOf([...prefix, key]), name(key), `folder rule key "${key}" is not read: a folder rule holds ${[...check.keys].join(', ')}. Fix its name, or remove it.`));
  }
  if (!result.success) {
    problems.push(...schemaProblems(result.error.issues, { file, data: rest, lineOf, derivedId: '', prefix, subject: 'folder rule' }));
    return {};
  }
  const { applies_to, labels } = result.data;
  return { ...(applies_to === undefined ? {} : { applies_to }), ...(labels === undefined ? {} : { labels }) };
}

function problemAt(file: string, line: number | undefined, field: string, message: string): CorpusProblem {
  return { file, ...(line === undefined ? {} : { line }), field, message };
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
