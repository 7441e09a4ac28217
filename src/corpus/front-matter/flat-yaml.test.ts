import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readFlatYaml } from './flat-yaml.ts';
import { sharedFolder } from '../../testing/shared-folder.ts';
import { parseFrontMatter, splitFrontMatter } from './front-matter.ts';

const corpora = sharedFolder('corpora', process.env);

describe('readFlatYaml', () => {
  it('reads one key per line: quoted strings, plain strings and small integers', () => {
    expect(readFlatYaml('id: p0\ntitle: "Taos Society of Artists"\napplies_to: \'3.x\'\nsidebar_position: 12\n\nslug: getting-started/install')).toEqual({
      id: 'p0',
      title: 'Taos Society of Artists',
      applies_to: '3.x',
      sidebar_position: 12,
      slug: 'getting-started/install',
    });
    expect(readFlatYaml('')).toEqual({});
  });

  it.each([
    ['a list', 'tags:\n  - a'],
    ['a nested map', 'labels:\n  acl: staff'],
    ['a flow list', 'tags: [a, b]'],
    ['a comment line', '# draft\ntitle: A'],
    ['a comment after a value', 'title: A # draft'],
    ['an escape', 'title: "A \\"B\\""'],
    ['a doubled single quote', "title: 'It''s'"],
    ['a boolean', 'draft: true'],
    ['a null', 'applies_to: null'],
    ['a missing value', 'applies_to:'],
    ['a float', 'version: 3.10'],
    ['an integer with a leading zero', 'id: 0123'],
    ['a negative integer', 'weight: -1'],
    ['a colon and a space in a plain value', 'title: Retries: how they work'],
    ['a duplicate key', 'title: A\ntitle: B'],
    ['an indented key', ' title: A'],
    ['a tab after the colon', 'title:\tA'],
    ['an anchor', 'title: &t A'],
    ['a block scalar', 'description: |\n  text'],
    ['a __proto__ key', '__proto__: x'],
    ['a document end marker', 'title: A\n...'],
  ])('leaves %s to the YAML parser', (_name, text) => {
    expect(readFlatYaml(text)).toBeUndefined();
  });

  it('reads what the yaml package reads, whenever it reads anything', () => {
    // Values near every rule's edge: indicators, YAML 1.2 core words, numbers, quotes, spaces.
    const piece = fc.constantFrom('a', 'Z', 'x y', '  ', ' ', '3', '0', '12', '3.10', '-', ':', ': ', '#', ' #', '"', "'", '\\', ',', '.', '/', '(', ')', '+', '_', '~', 'é', '\t', 'true', 'True', 'null', 'Yes', 'no', 'NaN', '.inf', '0x1F', '1e3', '&', '*', '!', '[', '{', '|', '>', '%', '@', '`');
    const value = fc.array(piece, { minLength: 0, maxLength: 6 }).map((parts) => parts.join(''));
    const quoted = fc.tuple(fc.constantFrom('', '"', "'"), value).map(([quote, text]) => `${quote}${text}${quote}`);
    const key = fc.constantFrom('id', 'title', 'applies_to', 'sidebar-position', '_x', 'A1', 'a b', '1a');
    const line = fc.oneof(fc.tuple(key, fc.constantFrom(': ', ':  ', ':', ' : '), quoted, fc.constantFrom('', ' ', '\t')).map((parts) => parts.join('')), fc.constant(''));
    const text = fc.array(line, { minLength: 0, maxLength: 5 }).map((lines) => lines.join('\n'));
    let read = 0;
    fc.assert(
      fc.property(text, (yaml) => {
        const flat = readFlatYaml(yaml);
        if (flat === undefined) return;
        read += 1;
        expect(flat).toEqual(parse(yaml) ?? {});
      }),
      { numRuns: 3000, seed: 7 },
    );
    // The comparison above must not pass by reading nothing.
    expect(read).toBeGreaterThan(300);
  });

  it('changes no front matter of the fixtures and real corpora', ({ skip }) => {
    skip(!corpora.present, corpora.absent);
    const files = markdownFiles(join(import.meta.dirname, '..', '__fixtures__')).concat(markdownFiles(corpora.path));
    let flat = 0;
    for (const file of files) {
      const split = splitFrontMatter(file, readFileSync(file, 'utf8').replace(/\r\n?/g, '\n'));
      if (!split.ok || split.split.yaml === undefined) continue;
      const fields = readFlatYaml(split.split.yaml);
      if (fields === undefined) continue;
      flat += 1;
      expect(fields, file).toEqual(parse(split.split.yaml) ?? {});
    }
    expect(flat).toBeGreaterThan(0);
  });
});

describe('parseFrontMatter on flat front matter', () => {
  it('still names the line of an invalid field', () => {
    const parsed = parseFrontMatter({ file: 'a.md', yaml: 'title: A\nid: Not An Id', yamlStartLine: 2, derivedId: 'a' });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems.map((problem) => [problem.field, problem.line])).toEqual([['id', 3]]);
  });

  it('refuses an access label under a key it does not read, as the YAML parser path does', () => {
    // `acl: admins` is flat; `acl: [admins]` needs the parser. Both were read as public pages.
    const read = (yaml: string) => parseFrontMatter({ file: 'plan.md', yaml, yamlStartLine: 2, derivedId: 'plan' });
    const flat = read('title: Plan\nACL: admins');
    const parsed = read('title: Plan\nACL: [admins]');
    expect(flat).toEqual(parsed);
    expect(flat).toEqual({
      ok: false,
      problems: [{ file: 'plan.md', line: 3, field: 'ACL', message: 'front matter key "ACL" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}. Move them there, or rename the key if it is not about access.' }],
    });
  });

  it('reads an integer id as a string', () => {
    expect(parseFrontMatter({ file: 'a.md', yaml: 'id: 3642\ntitle: "Install"', yamlStartLine: 2, derivedId: 'a' })).toEqual({
      ok: true,
      frontMatter: { id: '3642', title: 'Install' },
    });
  });
});

function markdownFiles(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}
