import { slugFromPath } from './slug.ts';

/**
 * The document ids a markdown link may point to, most likely first, derived the way the corpus
 * derives ids from paths (`slugFromPath`). A reader of a chunk knows the linking page's doc id,
 * not its folder, so every folder that id can stand for is tried: `./add-job.md` in
 * `library-queue` may be `library-add-job` (the page sits in `library/`) or `add-job`. A link
 * with a site prefix (`/docs/worker-events`) also yields the ids without its leading segments; one
 * without a `.md` extension may name a folder, whose page is its `index.md` or `README.md`.
 * External links (a scheme, `//host`), mail links and pure anchors (`#options`) yield none.
 * Ids are candidates to check against the index, never facts: the index says which exist.
 *
 * @example
 * linkTargetDocIds('/docs/cli', 'techniques'); // ['docs-cli', 'cli', 'docs-cli-index', 'cli-index', 'docs-cli-readme', 'cli-readme']
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
  // Folders the path can be read in: from the site root, the full path, then without each leading
  // segment (a "/docs/" prefix); relative, the folders the linking page's id can stand for,
  // deepest first, less one per "..".
  const paths: string[][] = [];
  if (target.startsWith('/')) {
    for (let drop = 0; drop < rest.length; drop++) paths.push(rest.slice(drop));
  } else {
    const fromParts = fromDocId.split('-').filter((part) => part !== '');
    for (let depth = fromParts.length - 1; depth >= 0; depth--) {
      if (depth - ups < 0 && depth !== 0) continue;
      paths.push([...fromParts.slice(0, Math.max(0, depth - ups)), ...rest]);
    }
  }
  // A link without a page extension may name a folder, whose page is its index.md or README.md:
  // tried after every page the path can name.
  const folderPages = /\.(?:md|mdx)$/i.test(target) ? [] : ['index', 'readme'];
  const candidates: string[] = [];
  for (const parts of [...paths, ...folderPages.flatMap((page) => paths.map((parts) => [...parts, page]))]) {
    const id = slugFromPath(parts.join('/'));
    if (id !== '' && !candidates.includes(id)) candidates.push(id);
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
