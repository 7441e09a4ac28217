import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { AtlasError } from '../../errors.ts';

/** When a rule applies: any of `terms` occurs in the question as whole words, or `pattern` matches it (case-insensitive). */
export type PolicyWhen = { terms: string[] } | { pattern: string };

/**
 * What a rule makes the loop retrieve before the model's first call: one search (the pages of
 * its best `top` results, default 1, are the required pages), or whole documents by id.
 */
export type PolicyRequire = { search: string; top?: number } | { docs: string[] };

/** One mandatory-retrieval rule. */
export interface PolicyRule {
  name: string;
  when: PolicyWhen;
  require: PolicyRequire;
}

/** A parsed, validated policy. `source` names the file it came from, for messages. */
export interface Policy {
  rules: PolicyRule[];
  source?: string;
}

const nonEmptyText = (field: string, example: string) =>
  z.string({ error: `${field} must be text, e.g. ${example}` }).trim().min(1, { error: `${field} must not be empty, e.g. ${example}` });

const whenSchema = z.union(
  [
    z.strictObject({ terms: z.array(nonEmptyText('a term', '"allergy"'), { error: 'terms must be a list of words, e.g. [allergy, nuts]' }).min(1, { error: 'terms must list at least one word, e.g. [allergy, nuts]' }) }),
    z.strictObject({ pattern: nonEmptyText('pattern', '"\\\\ballerg"') }),
  ],
  { error: 'when must be { terms: [word, ...] } or { pattern: "regex" }' },
);

const requireSchema = z.union(
  [
    z.strictObject({
      search: nonEmptyText('search', '"allergen label policy"'),
      top: z.number({ error: 'top must be a whole number from 1, e.g. 1' }).int({ error: 'top must be a whole number from 1, e.g. 1' }).min(1, { error: 'top must be a whole number from 1, e.g. 1' }).optional(),
    }),
    z.strictObject({ docs: z.array(nonEmptyText('a doc id', '"label-policy"'), { error: 'docs must be a list of doc ids, e.g. [label-policy]' }).min(1, { error: 'docs must list at least one doc id, e.g. [label-policy]' }) }),
  ],
  { error: 'require must be { search: "query" } (optionally with top: N) or { docs: [doc-id, ...] }' },
);

const ruleSchema = z.strictObject({
  name: nonEmptyText('name', '"allergy-label"'),
  when: whenSchema,
  require: requireSchema,
});

const policySchema = z.strictObject({
  rules: z.array(ruleSchema, { error: 'rules must be a list of rules, each { name, when, require }' }).min(1, { error: 'rules must list at least one rule' }),
});

/**
 * Parses and validates a policy file's text (YAML; JSON is YAML too). Every problem is reported
 * at once, each naming the file, the field (e.g. `rules[0].when.pattern`), the value and the fix.
 *
 * @example
 * const policy = parsePolicy('rules:\n  - name: allergy\n    when: { terms: [allergy] }\n    require: { search: "allergen label" }\n', 'policy.yaml');
 * policy.rules[0].require; // { search: 'allergen label' }
 */
export function parsePolicy(text: string, source = 'policy'): Policy {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    const detail = error instanceof YAMLParseError ? error.message.split('\n')[0] : String(error);
    throw new AtlasError('usage', `Atlas: policy file ${source} is not valid YAML: ${detail}. Fix the syntax (see docs/policy.md).`);
  }
  const checked = checkPolicyData(data, source);
  if (!checked.ok) throw new AtlasError('usage', `Atlas: invalid policy file ${source}:\n${checked.problems.map((problem) => `  ${problem}`).join('\n')}\nSee docs/policy.md for the format.`);
  return checked.policy;
}

/**
 * Validates already parsed policy data (the `policy:` of a config file, say): the policy, or
 * every problem, each `<source>: <field>: <message>`, the field prefixed with `field` (e.g.
 * `policy` gives `policy.rules[0].when`).
 *
 * @example
 * checkPolicyData({ rules: [] }, 'atlas.config.yaml', 'policy');
 * // { ok: false, problems: ['atlas.config.yaml: policy.rules: rules must list at least one rule, got []'] }
 */
export function checkPolicyData(data: unknown, source: string, field = ''): { ok: true; policy: Policy } | { ok: false; problems: string[] } {
  const at = (path: string) => (field === '' ? path : path === '(top level)' ? field : path.startsWith('[') ? `${field}${path}` : `${field}.${path}`);
  const parsed = policySchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${source}: ${at(fieldPath(issue.path))}: ${issueMessage(issue, data)}`) };
  }
  const rules = parsed.data.rules as PolicyRule[];
  const problems: string[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, position) => {
    if (seen.has(rule.name)) problems.push(`${source}: ${at(`rules[${position}].name`)}: the name ${JSON.stringify(rule.name)} is used twice; give each rule its own name`);
    seen.add(rule.name);
    if ('pattern' in rule.when) {
      try {
        new RegExp(rule.when.pattern, 'i');
      } catch (error) {
        problems.push(`${source}: ${at(`rules[${position}].when.pattern`)}: ${JSON.stringify(rule.when.pattern)} is not a valid regular expression (${(error as Error).message}); fix it or use terms: [...]`);
      }
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, policy: { rules, source } };
}

/** A rule that matched a question, with what matched (the term, or the regex's match). */
export interface MatchedRule {
  rule: PolicyRule;
  matched: string;
}

/**
 * The rules whose `when` matches the question, in file order. Terms match whole words, case-
 * and punctuation-insensitively ("tree nut" matches "tree-nut" and "Tree nuts"; a trailing "s"
 * or "es", or "ies" for a final "y", on the question's word is allowed); a pattern is a case-insensitive regex.
 *
 * @example
 * matchingRules(policy, 'My son has a tree-nut allergy. Is the plum cake safe?'); // [{ rule, matched: 'allergy' }]
 */
export function matchingRules(policy: Policy, question: string): MatchedRule[] {
  const words = wordsOf(question);
  const matches: MatchedRule[] = [];
  for (const rule of policy.rules) {
    const matched = 'terms' in rule.when ? rule.when.terms.find((term) => containsTerm(words, wordsOf(term))) : new RegExp(rule.when.pattern, 'i').exec(question)?.[0];
    if (matched !== undefined) matches.push({ rule, matched });
  }
  return matches;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

function containsTerm(words: string[], term: string[]): boolean {
  if (term.length === 0) return false;
  for (let start = 0; start + term.length <= words.length; start += 1) {
    if (term.every((word, offset) => sameWord(words[start + offset] ?? '', word))) return true;
  }
  return false;
}

function sameWord(word: string, term: string): boolean {
  return word === term || word === `${term}s` || word === `${term}es` || (term.endsWith('y') && word === `${term.slice(0, -1)}ies`);
}

function fieldPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((part, position) => (typeof part === 'number' ? `[${part}]` : `${position === 0 ? '' : '.'}${String(part)}`)).join('');
}

function issueMessage(issue: z.core.$ZodIssue, data: unknown): string {
  const value = valueAt(data, issue.path);
  const got = value === undefined ? 'nothing' : JSON.stringify(value);
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}; a rule has name, when and require (when: terms or pattern; require: search (+ top) or docs)`;
  if (issue.path.length === 0 && (typeof data !== 'object' || data === null || Array.isArray(data))) return `a policy is a mapping with a rules list, got ${got}`;
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) return `expected ${issue.expected}, got ${got}`;
  return `${issue.message}, got ${got}`;
}

/**
 * The value at a zod issue's path in the parsed YAML, to name what was found in a message.
 *
 * @example
 * valueAt({ rules: [{ name: 7 }] }, ['rules', 0, 'name']); // 7
 */
export function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let value: unknown = data;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
