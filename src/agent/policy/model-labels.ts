import { AtlasError } from '../../errors.ts';
import { ACL_LABEL } from '../../index/filter.ts';
import type { IndexBackend, SearchFilter } from '../../index/types.ts';

/**
 * A label the MODEL may set as a `search_docs` argument (declared in `atlas.config.yaml` under
 * `model_labels`, or passed as the `modelLabels` option). Its allowed values come from the index;
 * a model-chosen value only narrows the filter the caller enforces.
 *
 * @example
 * const modelLabels: ModelLabel[] = [{ name: 'store', description: 'Which bakery store the question is about' }];
 * await agenticRun(question, { model, index, modelLabels });
 */
export interface ModelLabel {
  /** The front matter label (`labels.store`), also the name of the `search_docs` argument. */
  name: string;
  /** Shown to the model in the tool schema and the system prompt. */
  description?: string;
}

/** A model label offered in one run: the values the model may choose (from the pages the run may read). */
export interface LabelChoice extends ModelLabel {
  /** Sorted, never empty, never "all". */
  values: string[];
}

/** The arguments `search_docs` already has: a label of the same name would shadow them. */
const RESERVED_NAMES = ['query', 'version', 'page'];
const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * What is wrong with a model label's name, or undefined when it is fine: `acl` never (access is
 * the principal's), not a name `search_docs` already takes, letters, digits, `_` and `-` only,
 * and each name once (`seen` holds the names before it).
 *
 * @example
 * modelLabelNameProblem('acl', new Set()); // 'acl cannot be a model label: access comes from the asker's groups ...'
 */
export function modelLabelNameProblem(name: string, seen: ReadonlySet<string>): string | undefined {
  if (name === ACL_LABEL) {
    return `acl cannot be a model label: access comes from the asker's groups (--groups, ATLAS_GROUPS or the principal option), never from the model; remove it`;
  }
  if (RESERVED_NAMES.includes(name)) return `${JSON.stringify(name)} is already an argument of search_docs (${RESERVED_NAMES.join(', ')}); a label of that name cannot be declared`;
  if (!NAME_PATTERN.test(name)) return `${JSON.stringify(name)} is not a usable argument name: use letters, digits, _ and - (starting with a letter, at most 64), e.g. store`;
  if (seen.has(name)) return `${JSON.stringify(name)} is declared twice; declare each label once`;
  return undefined;
}

/**
 * Checks the `modelLabels` option of a run; an AtlasError naming the entry, the value and the
 * fix when a label cannot be offered to the model (see {@link modelLabelNameProblem}).
 *
 * @example
 * checkModelLabels([{ name: 'store' }]); // [{ name: 'store' }]
 * checkModelLabels([{ name: 'acl' }]); // throws: Atlas: modelLabels[0].name: acl cannot be a model label ...
 */
export function checkModelLabels(labels: readonly ModelLabel[] | undefined): ModelLabel[] {
  const seen = new Set<string>();
  return (labels ?? []).map((label, position) => {
    const name: unknown = (label as { name?: unknown } | null)?.name;
    const problem = typeof name !== 'string' ? `a model label is { name, description? }, got ${JSON.stringify(label)}` : modelLabelNameProblem(name, seen);
    if (problem !== undefined) throw new AtlasError('usage', `Atlas: modelLabels[${position}].name: ${problem}.`);
    seen.add(name as string);
    return label;
  });
}

/**
 * The model labels a run offers, with their values: for each declared label, the values present
 * on the pages the run's enforced `filter` lets through (its principal, version and other labels;
 * the label's own enforced values are applied when the model chooses, see {@link narrowLabels}).
 * A label no readable page carries is left out (`missing` names it), so the enum never lists a
 * value of a page the asker may not read and is never empty.
 *
 * @example
 * await modelLabelChoices(index, [{ name: 'store' }], { principal: { groups: [] } });
 * // { offered: [{ name: 'store', values: ['Aundh', 'Baner'] }], missing: [] }
 */
export async function modelLabelChoices(
  index: IndexBackend,
  labels: readonly ModelLabel[] | undefined,
  filter: SearchFilter | undefined,
): Promise<{ offered: LabelChoice[]; missing: string[] }> {
  const offered: LabelChoice[] = [];
  const missing: string[] = [];
  for (const label of checkModelLabels(labels)) {
    const { [label.name]: _own, ...otherLabels } = filter?.labels ?? {};
    const values = await index.labelValues(label.name, { ...filter, labels: otherLabels });
    if (values.length === 0) missing.push(label.name);
    else offered.push({ ...label, values });
  }
  return { offered, missing };
}

/**
 * The filter of one search: the enforced `filter` narrowed by the labels the model chose. A label
 * the filter does not fix is set to the model's value; one it fixes keeps only the model's value
 * when that is among the enforced values, and otherwise stays as enforced, with a conflict
 * message for the model and the trace. Never widens.
 *
 * @example
 * narrowLabels({ labels: { store: ['Baner'] } }, { store: 'Aundh' });
 * // { filter: { labels: { store: ['Baner'] } }, conflicts: ['store "Aundh" is outside the filter this conversation is held to (store=Baner): searched with store=Baner'] }
 */
export function narrowLabels(filter: SearchFilter, chosen: Readonly<Record<string, string>> | undefined): { filter: SearchFilter; conflicts: string[] } {
  const entries = Object.entries(chosen ?? {}).filter(([name]) => name !== ACL_LABEL);
  if (entries.length === 0) return { filter, conflicts: [] };
  const labels = { ...filter.labels };
  const conflicts: string[] = [];
  for (const [name, value] of entries) {
    const enforced = labels[name];
    const allowed = enforced === undefined ? undefined : [enforced].flat();
    if (allowed === undefined || allowed.includes(value)) labels[name] = [value];
    else conflicts.push(`${name} ${JSON.stringify(value)} is outside the filter this conversation is held to (${name}=${allowed.join(',')}): searched with ${name}=${allowed.join(',')}`);
  }
  return { filter: { ...filter, labels }, conflicts };
}
