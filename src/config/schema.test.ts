import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../agent/policy/policy.ts';
import { AtlasError } from '../errors.ts';
import { parseConfig } from './schema.ts';

const errorOf = (text: string, source = 'atlas.config.yaml'): string => {
  try {
    parseConfig(text, source);
  } catch (error) {
    expect(error).toBeInstanceOf(AtlasError);
    expect((error as AtlasError).code).toBe('usage');
    return (error as AtlasError).message;
  }
  throw new Error('expected parseConfig to throw');
};

const invalid = (...problems: string[]) => `Atlas: invalid config file atlas.config.yaml:\n${problems.map((problem) => `  atlas.config.yaml: ${problem}`).join('\n')}\nSee docs/policy.md ("Config file") for the format.`;

describe('parseConfig', () => {
  it('reads model labels and a policy in the format of a --policy file', () => {
    const example = new URL('../../examples/allergy/', import.meta.url);
    const config = parseConfig(readFileSync(new URL('atlas.config.yaml', example), 'utf8'), 'examples/allergy/atlas.config.yaml');
    const policy = parsePolicy(readFileSync(new URL('policy.yaml', example), 'utf8'), 'examples/allergy/atlas.config.yaml');
    expect(config).toEqual({
      source: 'examples/allergy/atlas.config.yaml',
      modelLabels: [{ name: 'store', description: 'Which bakery store the question is about' }],
      policy,
    });
  });

  it('reads an empty file, or one with only comments, as an empty config', () => {
    expect(parseConfig('', 'a.yaml')).toEqual({ source: 'a.yaml', modelLabels: [] });
    expect(parseConfig('# nothing yet\n', 'a.yaml')).toEqual({ source: 'a.yaml', modelLabels: [] });
    expect(parseConfig('model_labels: []\n', 'a.yaml')).toEqual({ source: 'a.yaml', modelLabels: [] });
  });

  it('names unknown top-level keys with the list of known keys', () => {
    expect(errorOf('model_label:\n  - name: store\nrules: []\n')).toBe(invalid('(top level): unknown keys model_label, rules; the known keys are model_labels, policy'));
    // Reported beside the problems of the known keys, not instead of them.
    expect(errorOf('rules: []\nmodel_labels:\n  - name: acl\npolicy:\n  rules:\n    - name: a\n      when: { terms: [nut] }\n      require: { search: x, top: 0 }\n')).toBe(
      invalid(
        '(top level): unknown key rules; the known keys are model_labels, policy',
        "model_labels[0].name: acl cannot be a model label: access comes from the asker's groups (--groups, ATLAS_GROUPS or the principal option), never from the model; remove it",
        'policy.rules[0].require.top: top must be a whole number from 1, e.g. 1, got 0',
      ),
    );
    expect(errorOf('- store\n')).toBe(invalid('(top level): a config is a mapping of model_labels, policy, got ["store"]'));
  });

  it('reports every problem of model_labels at once, with the field, the value and the fix', () => {
    expect(errorOf('model_labels: store\n')).toBe(
      invalid('model_labels: model_labels must be a list; a model label is { name, description? }, e.g. { name: store, description: "Which store the question is about" }, got "store"'),
    );
    expect(errorOf('model_labels:\n  - name: ""\n  - name: store\n    descripton: typo\n  - name: 7\n  - store\n')).toBe(
      invalid(
        'model_labels[0].name: name must not be empty, e.g. store, got ""',
        'model_labels[1]: unknown field descripton; a model label is { name, description? }, e.g. { name: store, description: "Which store the question is about" }',
        'model_labels[2].name: name must be text, the label of the front matter, e.g. store, got 7',
        'model_labels[3]: a model label is { name, description? }, e.g. { name: store, description: "Which store the question is about" }, got "store"',
      ),
    );
  });

  it('refuses acl, names search_docs already takes, unusable names and duplicates', () => {
    expect(errorOf('model_labels:\n  - name: acl\n  - name: version\n  - name: "store name"\n  - name: store\n  - name: store\n')).toBe(
      invalid(
        "model_labels[0].name: acl cannot be a model label: access comes from the asker's groups (--groups, ATLAS_GROUPS or the principal option), never from the model; remove it",
        'model_labels[1].name: "version" is already an argument of search_docs (query, version, page); a label of that name cannot be declared',
        'model_labels[2].name: "store name" is not a usable argument name: use letters, digits, _ and - (starting with a letter, at most 64), e.g. store',
        'model_labels[4].name: "store" is declared twice; declare each label once',
      ),
    );
  });

  it('checks policy: as parsePolicy checks a policy file, with the fields under policy', () => {
    expect(errorOf('policy:\n  rules:\n    - name: a\n      when: { pattern: "(" }\n      require: { search: x, top: 0 }\n')).toBe(
      invalid('policy.rules[0].require.top: top must be a whole number from 1, e.g. 1, got 0'),
    );
    expect(errorOf('policy:\n  rules:\n    - name: a\n      when: { pattern: "(" }\n      require: { docs: [faq] }\n')).toBe(
      invalid('policy.rules[0].when.pattern: "(" is not a valid regular expression (Invalid regular expression: /(/i: Unterminated group); fix it or use terms: [...]'),
    );
    expect(errorOf('policy: [a]\nmodel_labels:\n  - name: acl\n')).toBe(
      invalid(
        "model_labels[0].name: acl cannot be a model label: access comes from the asker's groups (--groups, ATLAS_GROUPS or the principal option), never from the model; remove it",
        'policy: a policy is a mapping with a rules list, got ["a"]',
      ),
    );
  });

  it('names the file and the YAML error', () => {
    expect(errorOf('model_labels: [\n')).toMatch(/^Atlas: config file atlas\.config\.yaml is not valid YAML: .+\. Fix the syntax \(see docs\/policy\.md, "Config file"\)\.$/);
  });
});
