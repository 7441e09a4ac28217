import { slugFromPath } from './slug.ts';

/**
 * The document ids a markdown link may point to, most likely first, derived the way the corpus
 * derives ids from paths (`slugFromPath`). A reader of a chunk knows the linking page's doc id,
 * not its folder, so every folder that id can stand for is tried: `./add-job.md` in
 * `library-queue` may be `library-add-job` (the page sits in `library/`) or `add-job`. A link
 * with a site prefix (`/docs/worker-events`) also yields the ids without its leading segments.
 * External links (a scheme, `//host`), mail links and pure anchors (`#options`) yield none.
 * Ids are candidates to check against the index, never facts: the index says which exist.
 *
 * @example
 * linkTargetDocIds('/docs/worker-events', 'techniques'); // ['docs-worker-events', 'worker-events']
 * linkTargetDocIds('./add-job.md#options', 'library-queue'); // ['library-add-job', 'add-job']
 */
export function linkTargetDocIds(href: string, fromDocId: string): string[] {
  const target = href.trim().replace(/[?#].*$/, '');
  if (target === '' || /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) return [];
  const segments = safeDecode(target)
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  const ups = segments.filter((segment) => segment === '..').length;
  const rest = segments.filter((segment) => segment !== '..');
  if (rest.length === 0) return [];
  const candidates: string[] = [];
  const add = (parts: string[]) => {
    const id = slugFromPath(parts.join('/'));
    if (id !== '' && !candidates.includes(id)) candidates.push(id);
  };
  if (target.startsWith('/')) {
    // From the site root: the full path, then without each leading segment (a "/docs/" prefix).
    for (let drop = 0; drop < rest.length; drop++) add(rest.slice(drop));
    return candidates;
  }
  // Relative: the folders the linking page's id can stand for, deepest first, less one per "..".
  const fromParts = fromDocId.split('-').filter((part) => part !== '');
  for (let depth = fromParts.length - 1; depth >= 0; depth--) {
    const folder = fromParts.slice(0, Math.max(0, depth - ups));
    if (depth - ups < 0 && depth !== 0) continue;
    add([...folder, ...rest]);
  }
  return candidates;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
