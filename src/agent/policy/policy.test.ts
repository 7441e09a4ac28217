import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { matchingRules, parsePolicy } from './policy.ts';

const valid = `
rules:
  - name: allergens
    when: { terms: [allergy, tree nut] }
    require: { search: "allergen label policy" }
  - name: refunds
    when: { pattern: "\\\\brefund(s|ed)?\\\\b" }
    require: { docs: [refund-policy, returns] }
  - name: top-two
    when: { terms: [delivery] }
    require: { search: delivery rules, top: 2 }
`;

function errorOf(text: string): AtlasError {
  try {
    parsePolicy(text, 'policy.yaml');
  } catch (error) {
    if (error instanceof AtlasError) return error;
    throw error;
  }
  throw new Error('parsePolicy accepted invalid input');
}

describe('parsePolicy', () => {
  it('reads the rules of a valid file, with its source', () => {
    expect(parsePolicy(valid, 'policy.yaml')).toEqual({
      source: 'policy.yaml',
      rules: [
        { name: 'allergens', when: { terms: ['allergy', 'tree nut'] }, require: { search: 'allergen label policy' } },
        { name: 'refunds', when: { pattern: '\\brefund(s|ed)?\\b' }, require: { docs: ['refund-policy', 'returns'] } },
        { name: 'top-two', when: { terms: ['delivery'] }, require: { search: 'delivery rules', top: 2 } },
      ],
    });
  });

  it('names the file, the field, the value and the fix for each problem, all at once', () => {
    const error = errorOf(`
rules:
  - name: a
    when: { terms: [] }
    require: { search: "x" }
  - name: b
    when: { terms: [x] }
    require: { search: "x", top: 0 }
  - name: c
    when: { terms: [x] }
    require: { docs: [x] }
    why: because
`);
    expect(error.code).toBe('usage');
    expect(error.message).toBe(
      [
        'Atlas: invalid policy file policy.yaml:',
        '  policy.yaml: rules[0].when.terms: terms must list at least one word, e.g. [allergy, nuts], got []',
        '  policy.yaml: rules[1].require.top: top must be a whole number from 1, e.g. 1, got 0',
        '  policy.yaml: rules[2]: unknown field why; a rule has name, when and require (when: terms or pattern; require: search (+ top) or docs)',
        'See docs/policy.md for the format.',
      ].join('\n'),
    );
  });

  it('rejects a when or require of neither form, naming both forms', () => {
    const error = errorOf('rules:\n  - name: a\n    when: { words: [x] }\n    require: { read: x }\n');
    expect(error.message).toBe(
      [
        'Atlas: invalid policy file policy.yaml:',
        '  policy.yaml: rules[0].when: when must be { terms: [word, ...] } or { pattern: "regex" }, got {"words":["x"]}',
        '  policy.yaml: rules[0].require: require must be { search: "query" } (optionally with top: N) or { docs: [doc-id, ...] }, got {"read":"x"}',
        'See docs/policy.md for the format.',
      ].join('\n'),
    );
  });

  it('rejects an invalid regex and a duplicate rule name after the schema passes', () => {
    const error = errorOf(`
rules:
  - name: a
    when: { pattern: "(unclosed" }
    require: { docs: [x] }
  - name: a
    when: { terms: [x] }
    require: { docs: [x] }
`);
    expect(error.message).toBe(
      [
        'Atlas: invalid policy file policy.yaml:',
        '  policy.yaml: rules[0].when.pattern: "(unclosed" is not a valid regular expression (Invalid regular expression: /(unclosed/i: Unterminated group); fix it or use terms: [...]',
        '  policy.yaml: rules[1].name: the name "a" is used twice; give each rule its own name',
        'See docs/policy.md for the format.',
      ].join('\n'),
    );
  });

  it('rejects bad YAML and a file that is not a mapping of rules', () => {
    expect(errorOf('rules: [unclosed').message).toMatch(/^Atlas: policy file policy\.yaml is not valid YAML: .+\. Fix the syntax \(see docs\/policy\.md\)\.$/);
    expect(errorOf('- a\n- b\n').message).toBe(
      'Atlas: invalid policy file policy.yaml:\n  policy.yaml: (top level): a policy is a mapping with a rules list, got ["a","b"]\nSee docs/policy.md for the format.',
    );
    expect(errorOf('').message).toBe(
      'Atlas: invalid policy file policy.yaml:\n  policy.yaml: (top level): a policy is a mapping with a rules list, got null\nSee docs/policy.md for the format.',
    );
    expect(errorOf('rules: []\n').message).toBe(
      'Atlas: invalid policy file policy.yaml:\n  policy.yaml: rules: rules must list at least one rule, got []\nSee docs/policy.md for the format.',
    );
  });
});

describe('matchingRules', () => {
  const policy = parsePolicy(valid, 'policy.yaml');
  const names = (question: string) => matchingRules(policy, question).map(({ rule, matched }) => [rule.name, matched]);

  it('matches terms as whole words, across case, hyphens and a plural ending', () => {
    expect(names('My son has a tree-nut allergy.')).toEqual([['allergens', 'allergy']]);
    expect(names('Are there TREE NUTS in it?')).toEqual([['allergens', 'tree nut']]);
    expect(names('Allergies at the counter?')).toEqual([['allergens', 'allergy']]);
    expect(names('Any allergen info?')).toEqual([]);
    expect(names('Is it a nutty cake?')).toEqual([]);
  });

  it('matches a pattern case-insensitively and records the matched text, in file order', () => {
    expect(names('Can I get a REFUNDED delivery?')).toEqual([
      ['refunds', 'REFUNDED'],
      ['top-two', 'delivery'],
    ]);
    expect(names('What are your opening hours?')).toEqual([]);
  });
});

describe('the allergy example policy', () => {
  const file = new URL('../../../examples/allergy/policy.yaml', import.meta.url);
  const policy = parsePolicy(readFileSync(file, 'utf8'), 'examples/allergy/policy.yaml');
  const fires = (question: string) => matchingRules(policy, question).map(({ matched }) => matched);

  it('fires on allergy questions worded in different ways, and not on other questions', () => {
    expect(fires('My son has a tree-nut allergy. Is your Christmas plum cake from Aundh safe for him?')).toEqual(['allergy']);
    expect(fires('Is the stollen OK for someone allergic to peanuts?')).toEqual(['allergic']);
    expect(fires('Does the brownie box contain nuts?')).toEqual(['nuts']);
    expect(fires('Which cakes are nut-free?')).toEqual(['nut-free']);
    expect(fires('What allergens are in the gingerbread?')).toEqual(['allergen']);
    expect(fires('Do you deliver to Baner on Sundays?')).toEqual([]);
    expect(fires('How long do I bake the plum cake?')).toEqual([]);
  });
});
