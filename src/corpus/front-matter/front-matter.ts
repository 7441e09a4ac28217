import { z } from 'zod';
import type { CorpusProblem } from '../../errors.ts';
import { readFlatYaml } from './flat-yaml.ts';
import { readYamlMap, type YamlMap } from './yaml-map.ts';
import { describeIssue } from './front-matter-messages.ts';
import { aclGroupProblem, accessNearMiss } from './access-keys.ts';
import { DOC_ID_PATTERN } from '../markdown/slug.ts';
import type { LabelValue } from '../types.ts';

/** The top-level fields Atlas reads; any other is ignored, unless it looks like an access label. */
const KNOWN_FIELDS = new Set(['id', 'title', 'applies_to', 'labels']);

/**
 * The front matter fields Atlas reads. Unknown fields (`sidebar_position`, `description`, ...)
 * are ignored; `null` is rejected rather than read as "missing", so a forgotten value never
 * silently widens `applies_to` or drops `labels`. A key that looks like an access label but is
 * not `labels.acl` (`acl:` at the top, `Labels:`, `labels.ACL`, `groups:`; see access-keys.ts)
 * is rejected too, as is an acl group with a comma or spaces around it: each would leave the
 * page readable by someone it was meant to exclude, or by no one, without a word.
 */
export const frontMatterSchema = z
  .looseObject({
    // Integer ids (`id: 3642`) are unambiguous and common in real corpora: read them as strings.
    id: z.union([z.string().regex(DOC_ID_PATTERN), z.number().int().nonnegative().transform(String)]).optional(),
    title: z.string().trim().min(1).optional(),
    applies_to: z.string().trim().min(1).optional(),
    labels: z
      .record(z.string(), z.union([z.string(), z.array(z.string())]))
      .superRefine((labels, context) => {
        // An empty acl would store no group at all, and the page would read as public.
        const acl = labels.acl;
        const groups = acl === undefined ? undefined : Array.isArray(acl) ? acl : [acl];
        if (groups !== undefined && (groups.length === 0 || groups.some((group) => group.trim() === ''))) {
          context.addIssue({ code: 'custom', path: ['acl'], message: 'acl must name at least one group' });
        } else if (groups !== undefined && aclGroupProblem(groups) !== undefined) {
          context.addIssue({ code: 'custom', path: ['acl'], message: 'acl groups are names without commas or spaces around them' });
        }
        // "all" means "every value" for other labels; as a group it would hide the page from everyone outside a group named "all".
        if (groups?.some((group) => group.trim().toLowerCase() === 'all')) {
          context.addIssue({ code: 'custom', path: ['acl'], message: 'acl: "all" is not a group' });
        }
        for (const name of Object.keys(labels)) {
          if (accessNearMiss(name, 'labels') !== undefined) context.addIssue({ code: 'custom', path: [name], message: `labels.${name} is not labels.acl` });
        }
      })
      .optional(),
  })
  .superRefine(
    (fields, context) => {
      for (const [key, value] of Object.entries(fields)) {
        if (KNOWN_FIELDS.has(key)) continue;
        const nearMiss = accessNearMiss(key, 'top');
        // A string or list under `label:` is some other field (a sidebar label); a map, or any `Labels:`, was meant as labels.
        const meantAsLabels = nearMiss === 'labels' && (key.toLowerCase() === 'labels' || (typeof value === 'object' && value !== null && !Array.isArray(value)));
        if (nearMiss === 'acl' || meantAsLabels) context.addIssue({ code: 'custom', path: [key], message: `${key} is not read` });
      }
    },
    // Checked even when a known field is invalid too, so every problem of the page is reported at once.
    { when: () => true },
  )
  .transform(({ id, title, applies_to, labels }): FrontMatter => ({
    ...(id === undefined ? {} : { id }),
    ...(title === undefined ? {} : { title }),
    ...(applies_to === undefined ? {} : { applies_to }),
    ...(labels === undefined ? {} : { labels }),
  }));

/** Validated front matter of one page. */
export interface FrontMatter {
  id?: string;
  title?: string;
  applies_to?: string;
  labels?: Record<string, LabelValue>;
}

/** A page's text cut in two: the YAML between the `---` lines, and the markdown body after them. */
export interface SplitSource {
  /** YAML text, `undefined` when the page has no front matter. */
  yaml?: string;
  /** 1-based source line of the first YAML line (2 when there is front matter). */
  yamlStartLine: number;
  body: string;
  /** 1-based source line where the body starts. */
  bodyStartLine: number;
}

/**
 * Splits `---` front matter off a page (text already decoded, LF line endings).
 *
 * @example
 * splitFrontMatter('---\ntitle: Hi\n---\nBody');
 * // { ok: true, split: { yaml: 'title: Hi', yamlStartLine: 2, body: 'Body', bodyStartLine: 4 } }
 */
export function splitFrontMatter(
  file: string,
  text: string,
): { ok: true; split: SplitSource } | { ok: false; problem: CorpusProblem } {
  const lines = text.split('\n');
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) {
    return { ok: true, split: { yamlStartLine: 1, body: text, bodyStartLine: 1 } };
  }
  const closing = lines.findIndex((line, index) => index > 0 && /^---[ \t]*$/.test(line));
  if (closing === -1) {
    return {
      ok: false,
      problem: {
        file,
        line: 1,
        field: 'front matter',
        message:
          'front matter opened with "---" on line 1 is never closed, got no second "---" line. Add a line "---" after the last front matter field.',
      },
    };
  }
  return {
    ok: true,
    split: {
      yaml: lines.slice(1, closing).join('\n'),
      yamlStartLine: 2,
      body: lines.slice(closing + 1).join('\n'),
      bodyStartLine: closing + 2,
    },
  };
}

/**
 * Parses and validates front matter YAML. Reports a YAML syntax error with its source line, or
 * every invalid field at once, each naming the bad value and the fix.
 *
 * @example
 * parseFrontMatter({ file: 'a.md', yaml: 'applies_to: "3.x"', yamlStartLine: 2, derivedId: 'a' });
 * // { ok: true, frontMatter: { applies_to: '3.x' } }
 */
export function parseFrontMatter(input: {
  file: string;
  yaml: string;
  yamlStartLine: number;
  /** The id the page gets without an `id` field; used to suggest fixes. */
  derivedId: string;
}): { ok: true; frontMatter: FrontMatter } | { ok: false; problems: CorpusProblem[] } {
  const { file, yaml, yamlStartLine } = input;
  // Flat front matter needs no YAML parser; one that fails validation is read again below, for
  // the lines its problems name.
  const flat = readFlatYaml(yaml);
  if (flat !== undefined) {
    const result = frontMatterSchema.safeParse(flat);
    if (result.success) return { ok: true, frontMatter: result.data };
  }
  const read = readYamlMap({ file, yaml, yamlStartLine, subject: 'front matter' });
  if (!read.ok) return { ok: false, problems: [read.problem] };
  const { data, lineOf } = read.map;
  const result = frontMatterSchema.safeParse(data);
  if (result.success) return { ok: true, frontMatter: result.data };

  return { ok: false, problems: schemaProblems(result.error.issues, { file, data, lineOf, derivedId: input.derivedId }) };
}

/**
 * The problems of the schema's issues, one per field (`labels.x` counts as its own field), in line
 * order, each naming the file, line, value and fix. `prefix` is the path of the fields checked
 * inside a larger YAML map (`['overrides', 0]` of a folder rule).
 */
export function schemaProblems(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }>,
  context: { file: string; data: unknown; lineOf: YamlMap['lineOf']; derivedId: string; prefix?: ReadonlyArray<string | number>; subject?: string },
): CorpusProblem[] {
  const prefix = context.prefix ?? [];
  const problems: CorpusProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = issue.path.slice(0, issue.path[0] === 'labels' ? 2 : 1).map(String);
    const key = path.join('.');
    if (seen.has(key)) continue;
    seen.add(key);
    const value = path.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], context.data);
    const line = context.lineOf([...prefix, ...path]);
    const field = prefix.length === 0 ? key : `${fieldPath(prefix)}.${key}`;
    problems.push({ file: context.file, ...(line === undefined ? {} : { line }), field, message: describeIssue(path, value, context.derivedId, context.subject) });
  }
  return problems.sort((left, right) => (left.line ?? Infinity) - (right.line ?? Infinity));
}

/** `['overrides', 0]` -> `overrides[0]`. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}
