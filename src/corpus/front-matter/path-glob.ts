/**
 * The glob patterns of a folder rule's `overrides` (`*.pdf`, `runbooks/**`, `api/{v1,v2}/*.html`),
 * compiled to a test of a page's path relative to the rule's folder. `*` is any part of one name,
 * `?` one character of it, `**` any number of folders, `{a,b}` either (not nested). A pattern
 * without `/` matches the file name at any depth (`*.pdf`, as .gitignore reads it); one with `/`
 * matches the whole path from the rule's folder. Character classes (`[abc]`), negation (`!`), a
 * leading `/` and `..` are refused with a reason: a pattern that silently matched nothing would
 * leave pages without the labels (the access) it was written for.
 *
 * @example
 * const glob = compilePathGlob('*.pdf');
 * glob.ok && glob.matches('handbooks/bakery.pdf'); // true
 */
export function compilePathGlob(pattern: string): { ok: true; matches: (path: string) => boolean } | { ok: false; reason: string } {
  const refused = refusal(pattern);
  if (refused !== undefined) return { ok: false, reason: refused };
  const anyDepth = !pattern.includes('/');
  const segments = pattern.split('/');
  let source = '';
  segments.forEach((segment, position) => {
    const last = position === segments.length - 1;
    if (segment === '**') source += last ? '.*' : '(?:[^/]+/)*';
    else source += segmentSource(segment) + (last ? '' : '/');
  });
  const regex = new RegExp(anyDepth ? `^(?:[^/]+/)*${source}$` : `^${source}$`);
  return { ok: true, matches: (path) => regex.test(path) };
}

function refusal(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'it is empty';
  if (pattern.startsWith('/')) return 'it starts with "/" (patterns are relative to the folder of the rule)';
  if (pattern.startsWith('!')) return 'negation ("!") is not supported';
  if (/[[\]]/.test(pattern)) return 'character classes ("[...]") are not supported';
  if (pattern.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) return 'it has an empty, "." or ".." folder (patterns match pages below the folder of the rule)';
  if (/\{[^}]*\{/.test(pattern) || (pattern.match(/\{/g)?.length ?? 0) !== (pattern.match(/\}/g)?.length ?? 0)) return 'its braces are unbalanced or nested';
  if (/[^/]\*\*|\*\*[^/]/.test(pattern)) return '"**" must be a whole folder name ("runbooks/**", "**/*.pdf")';
  return undefined;
}

/** One name's pattern as a regular expression source. */
function segmentSource(segment: string): string {
  let source = '';
  for (const part of segment.split(/(\{[^}]*\})/)) {
    if (part.startsWith('{') && part.endsWith('}')) source += `(?:${part.slice(1, -1).split(',').map(literalSource).join('|')})`;
    else source += literalSource(part);
  }
  return source;
}

function literalSource(text: string): string {
  return text.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
}
