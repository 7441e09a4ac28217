/**
 * How well a section of a page matches a link's anchor (`#typing.final`, `#expect-hasassertions`),
 * as documentation sites spell anchors: markdown sites slug a heading (`expect.hasAssertions` ->
 * `expect-hasassertions`), Sphinx names the object a definition defines, in its own letter case,
 * with its owner (`subprocess.TimeoutExpired.output`), a domain (`c.PyObject`) or a kind
 * (`envvar-PYTHONDEBUG`, `term-bytecode`) in front.
 */

/**
 * How a section matches an anchor, best first:
 * - `name`: its name in the anchor's letter case (`@typing.final` for `#typing.final`, not `typing.Final`);
 * - `slug`: its heading, alone or after the heading above it, slugs to the anchor (`#retry-count` for "count" under "retry");
 * - `member`: its name ends the anchor, with the anchor's owner before it or under a heading named as the owner (`datetime.isoformat()` for `#datetime.datetime.isoformat`, `output` under `exception subprocess.TimeoutExpired`);
 * - `suffix`: its heading's slug, alone or after the heading above it, ends with the anchor (`#hasassertions`);
 * - `tail`: its name ends the anchor (`void *PyMem_RawRealloc(...)` for `#c.PyMem_RawRealloc`);
 * - `kind`: the anchor is a kind and its heading's slug (`#term-bytecode` for "bytecode").
 */
export const ANCHOR_MATCHES = ['name', 'slug', 'member', 'suffix', 'tail', 'kind'] as const;
export type AnchorMatch = (typeof ANCHOR_MATCHES)[number];

/** Matches the sections of a page against one anchor. */
export interface AnchorMatcher {
  /** Whether the anchor is spelled as a slug (`#expect-hasassertions`): then its first `slug` match is the section. */
  readonly slugSpelled: boolean;
  /** How the section with this heading path matches, if it does. */
  match(headingPath: readonly string[]): AnchorMatch | undefined;
}

/**
 * A matcher for `anchor` (decoded, without the `#`).
 *
 * @example
 * const matcher = anchorMatcher('subprocess.TimeoutExpired.output');
 * matcher.match(['subprocess', 'exception subprocess.CalledProcessError', 'output']); // 'tail'
 * matcher.match(['subprocess', 'exception subprocess.TimeoutExpired', 'output']); // 'member'
 */
export function anchorMatcher(anchor: string): AnchorMatcher {
  const slug = headingSlug(anchor);
  const slugSpelled = anchor === slug;
  const cased = casedSlug(anchor);
  // An anchor spelled as a name ends with the name (`c.PyObject`, `envvar-PYTHONDEBUG`); its owner is the name before.
  const parts = slugSpelled ? [] : anchor.split(/[.-]/).filter((part) => part !== '');
  const tail = parts.at(-1);
  const owner = parts.at(-2);
  const kindRest = slugSpelled && /^[\p{L}\p{N}]+-./u.test(anchor) ? anchor.replace(/^[^-]+-/, '') : undefined;
  return {
    slugSpelled,
    match(headingPath) {
      const heading = headingPath.at(-1) ?? '';
      const name = nameOf(heading);
      const above = headingPath.at(-2) ?? '';
      const nameTail = lastName(name);
      if (casedSlug(name) === cased) return 'name';
      const forms = [heading, name, `${above} ${heading}`, `${above} ${name}`].map(headingSlug);
      if (forms.includes(slug)) return 'slug';
      if (tail !== undefined && nameTail === tail && owner !== undefined && (lastName(nameOf(above)) === owner || name.endsWith(`${owner}.${tail}`))) return 'member';
      if (forms.some((form) => form.endsWith(`-${slug}`))) return 'suffix';
      if (tail !== undefined && nameTail === tail) return 'tail';
      if (kindRest !== undefined && headingSlug(name) === kindRest) return 'kind';
      return undefined;
    },
  };
}

/** A heading's name: before a signature's parameters (`asyncio.create_task` of "asyncio.create_task(coro, *, name=None)"). */
function nameOf(heading: string): string {
  return heading.replace(/\(.*$/s, '').trim();
}

/** The last name in a text (`PyMem_RawRealloc` of `void *PyMem_RawRealloc`), or '' for none. */
function lastName(text: string): string {
  return /[\p{L}\p{N}_]+$/u.exec(text.replace(/[^\p{L}\p{N}_]+$/u, ''))?.[0] ?? '';
}

/** {@link headingSlug} in the text's own letter case, a leading word before a dotted name left out ("exception subprocess.TimeoutExpired" -> "subprocess-TimeoutExpired"). */
function casedSlug(text: string): string {
  const named = /^[\p{L}@]+\s+(?=\S*\.)/u.test(text) ? text.replace(/^\S+\s+/, '') : text;
  return named.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
}

/**
 * A heading as the anchors of documentation sites spell it: lower-cased, every run of other
 * characters than letters and digits one hyphen (`expect.hasAssertions` -> `expect-hasassertions`).
 *
 * @example
 * headingSlug('`vi.setConfig`'); // 'vi-setconfig'
 */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
