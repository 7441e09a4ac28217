import { describe, expect, it } from 'vitest';
import { parseDocument } from './index.ts';

describe('parseDocument: bad input', () => {
  function problems(path: string, source: string | Buffer) {
    const result = parseDocument({ path, bytes: Buffer.isBuffer(source) ? source : Buffer.from(source) });
    if (result.ok) throw new Error('expected problems');
    return result.problems;
  }
  const withField = (yaml: string) => `---\n${yaml}\n---\nText.\n`;

  it.each([
    ['applies_to: 3', 'applies_to', 'applies_to must be a string such as "3.x" or "all", got 3. Quote it: applies_to: "3.x".'],
    ['applies_to: 2.5', 'applies_to', 'applies_to must be a string such as "3.x" or "all", got 2.5. Quote it: applies_to: "2.5".'],
    ['applies_to: [2.x, 3.x]', 'applies_to', 'applies_to must be a string such as "3.x" or "all", got ["2.x","3.x"]. Write one release line, e.g. applies_to: "3.x", or applies_to: "all" for every version.'],
    ['applies_to:', 'applies_to', 'applies_to must be a string such as "3.x" or "all", got null. Write one release line, e.g. applies_to: "3.x", or applies_to: "all" for every version.'],
    ['applies_to: ""', 'applies_to', 'applies_to must be a string such as "3.x" or "all", got "". Write e.g. applies_to: "3.x", or remove the field to apply to all versions.'],
    ['id: my page', 'id', 'id must start with a letter or digit and use only letters, digits, ".", "_" and "-", got "my page". Use e.g. id: "my-page".'],
    ['id: -draft', 'id', 'id must start with a letter or digit and use only letters, digits, ".", "_" and "-", got "-draft". Use e.g. id: "draft".'],
    ['id: 4.2', 'id', 'id must be a string, got 4.2. Quote it: id: "4.2".'],
    ['id: [a]', 'id', 'id must be a string, got ["a"]. Write e.g. id: "guide", or remove the field to derive the id from the file path.'],
    ['title: ""', 'title', 'title must be a non-empty string, got "". Write a title, or remove the field to use the first "# " heading.'],
    ['title: 2024', 'title', 'title must be a string, got 2024. Quote it: title: "2024".'],
    ['title: {a: 1}', 'title', 'title must be a string, got {"a":1}. Write one line of text, e.g. title: "Getting started".'],
    ['labels: [a, b]', 'labels', 'labels must be a map from label name to a string or a list of strings, got ["a","b"]. Write e.g. labels: { team: "payments", acl: ["staff"] }.'],
    ['labels:\n  acl: [staff, 7]', 'labels.acl', 'labels.acl must be a string or a list of strings, got ["staff",7]. Quote every item: acl: ["staff", "7"].'],
    ['labels:\n  acl: []', 'labels.acl', 'labels.acl must name at least one group (no empty names), got []. Write e.g. acl: ["staff"], or remove acl to make the page public.'],
    ['labels:\n  acl: ["staff", " "]', 'labels.acl', 'labels.acl must name at least one group (no empty names), got ["staff"," "]. Write e.g. acl: ["staff"], or remove acl to make the page public.'],
    ['labels:\n  acl: [staff, all]', 'labels.acl', 'labels.acl lists the groups that may read the page; "all" is not one of them (it would hide the page from everyone outside a group named "all"), got ["staff","all"]. Remove acl to make the page public, or name the groups, e.g. acl: ["staff"].'],
    ['labels:\n  acl: All', 'labels.acl', 'labels.acl lists the groups that may read the page; "all" is not one of them (it would hide the page from everyone outside a group named "all"), got "All". Remove acl to make the page public, or name the groups, e.g. acl: ["staff"].'],
    ['labels:\n  acl: ""', 'labels.acl', 'labels.acl must name at least one group (no empty names), got "". Write e.g. acl: ["staff"], or remove acl to make the page public.'],
    ['labels:\n  team: {a: 1}', 'labels.team', 'labels.team must be a string or a list of strings, got {"a":1}. Write e.g. team: "staff" or team: ["staff", "admins"].'],
  ])('%s', (yaml, field, message) => {
    const line = 2 + yaml.split('\n').length - 1;
    expect(problems('guide.md', withField(yaml))).toEqual([{ file: 'guide.md', line, field, message }]);
  });

  // A near miss of labels.acl was read as nothing, and the page indexed public without a word.
  it.each([
    ['acl: admins', 'acl', 'front matter key "acl" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}. Move them there, or rename the key if it is not about access.'],
    ['acl: [admins]', 'acl', 'front matter key "acl" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}. Move them there, or rename the key if it is not about access.'],
    ['ACL: "admins"', 'ACL', 'front matter key "ACL" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}. Move them there, or rename the key if it is not about access.'],
    ['groups: [admins, staff]', 'groups', 'front matter key "groups" is not read, so it restricts nothing; access groups go under labels: {acl: [admins, staff]}. Move them there, or rename the key if it is not about access.'],
    ['access: admins', 'access', 'front matter key "access" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}. Move them there, or rename the key if it is not about access.'],
    ['permissions:\n  - admins', 'permissions', 'front matter key "permissions" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}. Move them there, or rename the key if it is not about access.'],
    ['allowed_roles: [admins]', 'allowed_roles', 'front matter key "allowed_roles" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}. Move them there, or rename the key if it is not about access.'],
    ['label:\n  acl: [admins]', 'label', 'front matter key "label" is not read, so its labels restrict and filter nothing; labels go under the key labels: {acl: [admins]}. Rename it to labels.'],
    ['Labels:\n  acl: admins\n  store: Aundh', 'Labels', 'front matter key "Labels" is not read, so its labels restrict and filter nothing; labels go under the key labels: {acl: [admins], store: Aundh}. Rename it to labels.'],
    ['lables: {acl: [admins]}', 'lables', 'front matter key "lables" is not read, so its labels restrict and filter nothing; labels go under the key labels: {acl: [admins]}. Rename it to labels.'],
    ['labels:\n  ACL: [admins]', 'labels.ACL', 'labels.ACL is not read as access groups (only labels.acl is), so it restricts nothing; write acl: [admins]. Rename it to acl, or rename the label if it is not about access.'],
    ['labels:\n  acls: [admins]', 'labels.acls', 'labels.acls is not read as access groups (only labels.acl is), so it restricts nothing; write acl: [admins]. Rename it to acl, or rename the label if it is not about access.'],
    ['labels:\n  groups: admins', 'labels.groups', 'labels.groups is not read as access groups (only labels.acl is), so it restricts nothing; write acl: [admins]. Rename it to acl, or rename the label if it is not about access.'],
    ['labels:\n  acl: "admins, staff"', 'labels.acl', 'labels.acl names one group "admins, staff", which holds a comma: groups are a list, not comma-separated. List each group: acl: [admins, staff].'],
    ['labels:\n  acl: [staff, "admins,ops"]', 'labels.acl', 'labels.acl names one group "admins,ops", which holds a comma: groups are a list, not comma-separated. List each group: acl: [staff, admins, ops].'],
    ['labels:\n  acl: [" admins"]', 'labels.acl', 'labels.acl names the group " admins", with spaces around it, which no principal has (group names are trimmed). Write acl: [admins].'],
    ['labels:\n  acl: "staff "', 'labels.acl', 'labels.acl names the group "staff ", with spaces around it, which no principal has (group names are trimmed). Write acl: [staff].'],
  ])('reports a misplaced or misspelled access label: %s', (yaml, field, message) => {
    const line = 2 + (field.startsWith('labels.') ? yaml.split('\n').findIndex((text) => text.trimStart().startsWith(field.slice('labels.'.length))) : 0);
    expect(problems('guide/plan.md', withField(yaml))).toEqual([{ file: 'guide/plan.md', line, field, message }]);
  });

  it('reads keys that are neither access labels nor near misses as before', () => {
    const result = parseDocument({ path: 'a.md', bytes: Buffer.from('---\nurl: /a\nalt: x\napp: y\nsidebar_label: A\nlevels: 3\nlabels:\n  acl: [admins, site ops]\n  store: Aundh\n---\nText.\n') });
    expect(result.ok && result.doc.labels).toEqual({ acl: ['admins', 'site ops'], store: 'Aundh' });
  });

  it('reports a YAML syntax error with its source line', () => {
    expect(problems('a.md', '---\ntitle: Broken\ndescription: "never closed\n---\nText.\n')).toEqual([
      { file: 'a.md', line: 3, field: 'front matter',
        message: 'front matter is not valid YAML at column 27: Missing closing "quote. Fix the YAML syntax; quote values that contain ": " or " #".' },
    ]);
  });

  it('reports front matter that is not a map, or never closed', () => {
    expect(problems('a.md', '---\n- one\n- two\n---\nText.\n')).toEqual([
      { file: 'a.md', line: 2, field: 'front matter', message: 'front matter must be a map of fields, got a list. Write one field per line, e.g. title: "Install".' },
    ]);
    expect(problems('a.md', '---\ntitle: Open\n\nText.\n')).toEqual([
      { file: 'a.md', line: 1, field: 'front matter',
        message: 'front matter opened with "---" on line 1 is never closed, got no second "---" line. Add a line "---" after the last front matter field.' },
    ]);
  });

  it('reports binary, UTF-16 and non-UTF-8 files', () => {
    expect(problems('bin.md', Buffer.from([0x23, 0x20, 0x41, 0x0a, 0x00, 0x01]))).toEqual([
      { file: 'bin.md', line: 2, field: 'encoding',
        message: 'file looks binary, got a NUL byte at byte offset 4. Only UTF-8 markdown (.md, .mdx) can be indexed: move the file out of the docs folder.' },
    ]);
    expect(problems('wide.md', Buffer.from([0xff, 0xfe, 0x23, 0x00]))).toEqual([
      { file: 'wide.md', field: 'encoding', message: 'file is UTF-16 encoded, got a UTF-16 byte order mark. Re-save it as UTF-8.' },
    ]);
    expect(problems('latin.md', Buffer.concat([Buffer.from('Line one\nCaf'), Buffer.from([0xe9]), Buffer.from('\n')]))).toEqual([
      { file: 'latin.md', line: 2, field: 'encoding', message: 'file is not valid UTF-8, got an invalid byte sequence at byte offset 12. Re-save it as UTF-8.' },
    ]);
  });

  it.each([
    ['an empty file', ''],
    ['only front matter', '---\ntitle: T\n---\n'],
    ['only a title', '---\ntitle: T\n---\n\n# T\n\n'],
    ['only mdx imports', "import A from 'a';\n"],
  ])('reports a page with no text: %s', (_name, source) => {
    expect(problems('empty.mdx', source)).toEqual([
      { file: 'empty.mdx', field: 'content', message: 'page has no text besides its front matter and title, got an empty body. Write some content, or delete the file.' },
    ]);
  });

  it('reports an id that cannot be derived from the file name', () => {
    expect(problems('_.md', 'Text.')).toEqual([
      { file: '_.md', field: 'id', message: 'id cannot be derived from the file name, got "_.md". Add one to the front matter, e.g. id: "my-page".' },
    ]);
  });

  it('reports YAML alias bombs instead of expanding them', () => {
    const aliases = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]'];
    expect(problems('bomb.md', withField(aliases.join('\n')))).toEqual([
      { file: 'bomb.md', line: 2, field: 'front matter',
        message: 'front matter could not be read, got "Excessive alias count indicates a resource exhaustion attack". Remove YAML aliases (*name) from the front matter.' },
    ]);
  });

  it('reports every problem of a page together', () => {
    expect(problems('all.md', '---\nid: 7 7\napplies_to: 3\ntitle: ""\n---\n# Only a title\n')).toEqual([
      { file: 'all.md', line: 2, field: 'id',
        message: 'id must start with a letter or digit and use only letters, digits, ".", "_" and "-", got "7 7". Use e.g. id: "7-7".' },
      { file: 'all.md', line: 3, field: 'applies_to',
        message: 'applies_to must be a string such as "3.x" or "all", got 3. Quote it: applies_to: "3.x".' },
      { file: 'all.md', line: 4, field: 'title',
        message: 'title must be a non-empty string, got "". Write a title, or remove the field to use the first "# " heading.' },
      { file: 'all.md', field: 'content',
        message: 'page has no text besides its front matter and title, got an empty body. Write some content, or delete the file.' },
    ]);
  });
});
