import { describe, expect, it } from 'vitest';
import { parseFolderRule } from './folder-rule.ts';
import { compilePathGlob } from './path-glob.ts';

// Issue 40: a folder rule (`_atlas.yaml`) gives labels, acl and applies_to to every page under its folder.

const parse = (yaml: string, file = 'internal/_atlas.yaml') => parseFolderRule({ file, yaml });

describe('parseFolderRule', () => {
  it('reads the fields and the overrides in order, with the folder it rules', () => {
    const parsed = parse('applies_to: "3.x"\nlabels:\n  team: ops\n  acl: [staff]\noverrides:\n  - match: "runbooks/**"\n    labels: { acl: [oncall] }\n  - match: "*.pdf"\n    applies_to: all\n');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const { rule } = parsed;
    expect([rule.file, rule.folder, rule.fields]).toEqual(['internal/_atlas.yaml', 'internal', { applies_to: '3.x', labels: { team: 'ops', acl: ['staff'] } }]);
    expect(rule.overrides.map((override) => [override.match, override.fields])).toEqual([
      ['runbooks/**', { labels: { acl: ['oncall'] } }],
      ['*.pdf', { applies_to: 'all' }],
    ]);
    expect(rule.overrides[0]!.matches('runbooks/db/restore.md')).toBe(true);
    expect(rule.overrides[0]!.matches('guide.md')).toBe(false);
    expect(parse('labels: { acl: admins }', '_atlas.yaml')).toMatchObject({ ok: true, rule: { folder: '' } });
  });

  it('refuses the access near misses with the file, line and fix, as front matter does', () => {
    expect(parse('ACL: [staff]\nlabels:\n  acls: [admins]\n  access: [ops]\noverrides:\n  - match: "*.pdf"\n    labels:\n      groups: [x]\n')).toEqual({
      ok: false,
      problems: [
        { file: 'internal/_atlas.yaml', line: 1, field: 'ACL', message: 'folder rule key "ACL" is not read, so it restricts nothing; access groups go under labels: {acl: [staff]}. Move them there, or rename the key if it is not about access.' },
        { file: 'internal/_atlas.yaml', line: 3, field: 'labels.acls', message: 'labels.acls is not read as access groups (only labels.acl is), so it restricts nothing; write acl: [admins]. Rename it to acl, or rename the label if it is not about access.' },
        { file: 'internal/_atlas.yaml', line: 4, field: 'labels.access', message: 'labels.access is not read as access groups (only labels.acl is), so it restricts nothing; write acl: [ops]. Rename it to acl, or rename the label if it is not about access.' },
        { file: 'internal/_atlas.yaml', line: 8, field: 'overrides[0].labels.groups', message: 'labels.groups is not read as access groups (only labels.acl is), so it restricts nothing; write acl: [x]. Rename it to acl, or rename the label if it is not about access.' },
      ],
    });
  });

  it('refuses per-page fields, unknown keys, a bad glob, an empty override and the acl values front matter refuses', () => {
    expect(parse('id: internal\ntitle: Internal\napplies-to: "3.x"\nlabels:\n  acl: all\noverrides:\n  - match: "[ab].md"\n    labels: { x: y }\n  - match: "*.md"\n  - runbooks\n')).toEqual({
      ok: false,
      problems: [
        { file: 'internal/_atlas.yaml', line: 1, field: 'id', message: 'id is given per page, got "internal": a folder rule gives its fields to every page under it. Remove it from the folder rule; set the id in a page\'s front matter or sidecar.' },
        { file: 'internal/_atlas.yaml', line: 2, field: 'title', message: 'title is given per page, got "Internal": a folder rule gives its fields to every page under it. Remove it from the folder rule; set the title in a page\'s front matter or sidecar.' },
        { file: 'internal/_atlas.yaml', line: 3, field: 'applies-to', message: 'folder rule key "applies-to" is not read: a folder rule holds applies_to, labels, overrides. Fix its name, or remove it.' },
        {
          file: 'internal/_atlas.yaml',
          line: 5,
          field: 'labels.acl',
          message: 'labels.acl lists the groups that may read the page; "all" is not one of them (it would hide the page from everyone outside a group named "all"), got "all". Remove acl to make the page public, or name the groups, e.g. acl: ["staff"].',
        },
        { file: 'internal/_atlas.yaml', line: 7, field: 'overrides[0].match', message: 'override match: "[ab].md" is not a glob Atlas reads: character classes ("[...]") are not supported. Write a pattern of paths below the folder, e.g. match: "*.pdf" or match: "runbooks/**".' },
        { file: 'internal/_atlas.yaml', line: 9, field: 'overrides[1]', message: 'the override of "*.md" gives nothing. Add labels or applies_to to it, or delete it.' },
        { file: 'internal/_atlas.yaml', line: 10, field: 'overrides[2]', message: 'an override must be a map with match and labels or applies_to, got "runbooks". Write e.g. - match: "*.pdf"' },
      ],
    });
  });

  it('names a YAML syntax error with its line', () => {
    expect(parse('labels:\n  acl: [staff\n')).toEqual({
      ok: false,
      problems: [{ file: 'internal/_atlas.yaml', line: 3, field: 'folder rule', message: expect.stringMatching(/^folder rule is not valid YAML at column \d+: .+\. Fix the YAML syntax; quote values that contain ": " or " #"\.$/) }],
    });
  });
});

describe('compilePathGlob', () => {
  const matches = (pattern: string, paths: string[]) => {
    const glob = compilePathGlob(pattern);
    if (!glob.ok) throw new Error(glob.reason);
    return paths.filter(glob.matches);
  };
  const paths = ['a.pdf', 'guide.md', 'runbooks/db.md', 'runbooks/old/x.pdf', 'api/v1/a.html', 'api/v3/a.html', 'xrunbooks/a.md'];

  it('matches a name at any depth without "/", the path from the folder with it', () => {
    expect(matches('*.pdf', paths)).toEqual(['a.pdf', 'runbooks/old/x.pdf']);
    expect(matches('runbooks/**', paths)).toEqual(['runbooks/db.md', 'runbooks/old/x.pdf']);
    expect(matches('runbooks/*', paths)).toEqual(['runbooks/db.md']);
    expect(matches('**/*.pdf', paths)).toEqual(['a.pdf', 'runbooks/old/x.pdf']);
    expect(matches('api/{v1,v2}/*.html', paths)).toEqual(['api/v1/a.html']);
    expect(matches('guid?.md', paths)).toEqual(['guide.md']);
    expect(matches('a.pdf', paths)).toEqual(['a.pdf']);
  });

  it('refuses what it would read wrong, with the reason', () => {
    expect(['/a.md', '!a.md', '../a.md', 'a//b', 'a{b', 'a**/b', ''].map((pattern) => compilePathGlob(pattern))).toEqual([
      { ok: false, reason: 'it starts with "/" (patterns are relative to the folder of the rule)' },
      { ok: false, reason: 'negation ("!") is not supported' },
      { ok: false, reason: 'it has an empty, "." or ".." folder (patterns match pages below the folder of the rule)' },
      { ok: false, reason: 'it has an empty, "." or ".." folder (patterns match pages below the folder of the rule)' },
      { ok: false, reason: 'its braces are unbalanced or nested' },
      { ok: false, reason: '"**" must be a whole folder name ("runbooks/**", "**/*.pdf")' },
      { ok: false, reason: 'it is empty' },
    ]);
  });
});
