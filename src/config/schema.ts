import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { modelLabelNameProblem, type ModelLabel } from '../agent/policy/model-labels.ts';
import { checkPolicyData, valueAt, type Policy } from '../agent/policy/policy.ts';
import { AtlasError } from '../errors.ts';

/**
 * A validated `atlas.config.yaml`: the labels the model may set as `search_docs` arguments, and
 * a policy of mandatory retrievals (the format of a `--policy` file). `source` names the file.
 */
export interface AtlasConfig {
  source: string;
  modelLabels: ModelLabel[];
  policy?: Policy;
}

/** The top-level keys of a config file. */
export const CONFIG_KEYS = ['model_labels', 'policy'] as const;

const LABEL_SHAPE = 'a model label is { name, description? }, e.g. { name: store, description: "Which store the question is about" }';

const modelLabelSchema = z.strictObject(
  {
    name: z.string({ error: 'name must be text, the label of the front matter, e.g. store' }).trim().min(1, { error: 'name must not be empty, e.g. store' }),
    description: z.string({ error: 'description must be text, e.g. "Which store the question is about"' }).trim().optional(),
  },
  { error: LABEL_SHAPE },
);

// Not strict: unknown top-level keys are reported beside the problems of the known ones.
const configSchema = z.object(
  {
    model_labels: z.array(modelLabelSchema, { error: `model_labels must be a list; ${LABEL_SHAPE}` }).optional(),
    policy: z.unknown().optional(),
  },
  { error: `a config is a mapping of ${CONFIG_KEYS.join(', ')}` },
);

/**
 * Parses and validates the text of an `atlas.config.yaml`. Every problem is reported at once,
 * each naming the file, the field (`model_labels[0].name`, `policy.rules[1].when`), the value and
 * the fix; an unknown top-level key lists the known ones. An empty file is an empty config.
 *
 * @example
 * const config = parseConfig('model_labels:\n  - name: store\n', 'atlas.config.yaml');
 * config.modelLabels; // [{ name: 'store' }]
 */
export function parseConfig(text: string, source: string): AtlasConfig {
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (error) {
    const detail = error instanceof YAMLParseError ? error.message.split('\n')[0] : String(error);
    throw new AtlasError('usage', `Atlas: config file ${source} is not valid YAML: ${detail}. Fix the syntax (see docs/policy.md, "Config file").`);
  }
  const parsed = configSchema.safeParse(data);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${source}: ${fieldPath(issue.path)}: ${issueMessage(issue, data)}`);
  const unknown = isPlainObject(data) ? Object.keys(data).filter((key) => !(CONFIG_KEYS as readonly string[]).includes(key)) : [];
  if (unknown.length > 0) {
    problems.unshift(`${source}: (top level): unknown key${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; the known keys are ${CONFIG_KEYS.join(', ')}`);
  }
  const modelLabels: ModelLabel[] = [];
  if (parsed.success) {
    const seen = new Set<string>();
    (parsed.data.model_labels ?? []).forEach((label, position) => {
      const problem = modelLabelNameProblem(label.name, seen);
      seen.add(label.name);
      if (problem !== undefined) problems.push(`${source}: model_labels[${position}].name: ${problem}`);
      else modelLabels.push({ name: label.name, ...(label.description ? { description: label.description } : {}) });
    });
  }
  let policy: Policy | undefined;
  if (parsed.success && parsed.data.policy !== undefined) {
    const checked = checkPolicyData(parsed.data.policy, source, 'policy');
    if (checked.ok) policy = checked.policy;
    else problems.push(...checked.problems);
  }
  if (problems.length > 0) {
    throw new AtlasError('usage', `Atlas: invalid config file ${source}:\n${problems.map((problem) => `  ${problem}`).join('\n')}\nSee docs/policy.md ("Config file") for the format.`);
  }
  return { source, modelLabels, ...(policy ? { policy } : {}) };
}

function fieldPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((part, position) => (typeof part === 'number' ? `[${part}]` : `${position === 0 ? '' : '.'}${String(part)}`)).join('');
}

function issueMessage(issue: z.core.$ZodIssue, data: unknown): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}; ${LABEL_SHAPE}`;
  const value = valueAt(data, issue.path);
  return `${issue.message}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
