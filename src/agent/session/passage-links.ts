import type { Chunk } from '../../corpus/types.ts';
import { linkTargetDocIds } from '../../corpus/markdown/link-targets.ts';
import type { IndexBackend, SearchFilter } from '../../index/types.ts';
import { pathUnder } from '../../index/snippet.ts';
import { ANCHOR_MATCHES, anchorMatcher } from './anchor-match.ts';
import { textHeadings } from '../../index/snippet-units.ts';

/** A link of a passage to another page of the docs, with the chunk it names, if the caller may read one. */
export interface PassageLink {
  /** The link's text as written, backticks dropped (`maxWorkers`). */
  text: string;
  /** The target as written (`/config/maxworkers#default`). */
  href: string;
  /** The page and chunk it names (the section its anchor names, else the page's first chunk); undefined when no page the caller may read is there. */
  target?: LinkTarget;
}

/** Where a link leads in the index. */
export interface LinkTarget {
  doc_id: string;
  chunk_id: string;
}

/** Links a passage resolves at most (distinct targets, in text order): a result stays compact. */
export const MAX_LINKS_PER_PASSAGE = 5;

/** Chunks of a page walked at most to find the section an anchor names (beyond, the first chunk is given). */
const MAX_ANCHOR_WALK = 500;

/**
 * Internal markdown links of a text (`[label](target)`), external ones, anchors within the page
 * and images left out.
 *
 * @example
 * markdownLinks('See [Leases](leases.md) and [the site](https://x.dev).'); // [{ text: 'Leases', href: 'leases.md' }]
 */
export function markdownLinks(text: string): Array<{ text: string; href: string }> {
  const result: Array<{ text: string; href: string }> = [];
  for (const match of text.matchAll(/(!?)\[([^\]\n]{2,80})\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const href = match[3] ?? '';
    if (match[1] === '!' || /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(href)) continue;
    result.push({ text: (match[2] ?? '').replace(/`/g, '').trim(), href });
  }
  return result;
}

/** Resolves the links of passages to chunks under one filter; one per search session (its lookups are cached). */
export interface LinkResolver {
  /** The internal links of `text` (a passage of `chunk`), at most {@link MAX_LINKS_PER_PASSAGE}, each with its target when one exists under the filter (links to the chunk itself left out). */
  links(chunk: Pick<Chunk, 'docId' | 'chunkId'>, text: string): Promise<PassageLink[]>;
}

/**
 * A link resolver over `index` under `filter`: a link's candidate page ids
 * (`linkTargetDocIds`, most likely first) are checked against the index, the first that exists
 * and passes the filter wins; an anchor (`#expect-hasassertions`) names the section whose
 * heading slugs to it, else the page's first chunk is given. A page outside the filter (another
 * version, a group the caller is not in) is never named: its link has no target, as a link to a
 * page that does not exist.
 *
 * @example
 * const resolver = createLinkResolver(index, { version: '3.x' });
 * await resolver.links({ docId: 'config-vmmemorylimit', chunkId: 'config-vmmemorylimit#0' }, 'Raising [`maxWorkers`](/config/maxworkers) ...');
 * // [{ text: 'maxWorkers', href: '/config/maxworkers', target: { doc_id: 'config-maxworkers', chunk_id: 'config-maxworkers#0' } }]
 */
export function createLinkResolver(index: IndexBackend, filter: SearchFilter | undefined): LinkResolver {
  const cache = new Map<string, Promise<LinkTarget | undefined>>();
  // The sections of each page an anchor was looked up in: a page is walked once per session.
  const pages = new Map<string, Promise<PageSection[]>>();
  const sectionsOf = (first: Chunk) => {
    let sections = pages.get(first.docId);
    if (sections === undefined) {
      sections = pageSections(index, filter, first);
      pages.set(first.docId, sections);
    }
    return sections;
  };
  const resolve = (href: string, fromDocId: string) => {
    const key = `${fromDocId}\u0000${href}`;
    let found = cache.get(key);
    if (found === undefined) {
      found = resolveHref(index, filter, href, fromDocId, sectionsOf);
      cache.set(key, found);
    }
    return found;
  };
  return {
    async links(chunk, text) {
      const result: PassageLink[] = [];
      const hrefs = new Set<string>();
      for (const link of markdownLinks(text)) {
        if (result.length >= MAX_LINKS_PER_PASSAGE) break;
        if (hrefs.has(link.href)) continue;
        hrefs.add(link.href);
        const target = await resolve(link.href, chunk.docId);
        if (target?.chunk_id !== chunk.chunkId) result.push({ text: link.text, href: link.href, ...(target === undefined ? {} : { target }) });
      }
      return result;
    },
  };
}

async function resolveHref(
  index: IndexBackend,
  filter: SearchFilter | undefined,
  href: string,
  fromDocId: string,
  sectionsOf: (first: Chunk) => Promise<PageSection[]>,
): Promise<LinkTarget | undefined> {
  for (const docId of linkTargetDocIds(href, fromDocId)) {
    const first = await index.getChunk(`${docId}#0`, filter);
    if (first === undefined) continue;
    const anchor = /#(.+)$/.exec(href)?.[1];
    const chunkId = anchor === undefined ? first.chunkId : anchoredChunk(await sectionsOf(first), safeDecode(anchor), first.chunkId);
    return { doc_id: docId, chunk_id: chunkId };
  }
  return undefined;
}

/** A section of a page: the chunk that holds it, and its heading path. */
interface PageSection {
  chunkId: string;
  path: string[];
}

/**
 * The chunk that holds the section `anchor` names among a page's sections (anchor-match.ts): the
 * first that matches it best, in page order; `first` (the page's first chunk) when none does.
 */
function anchoredChunk(sections: readonly PageSection[], anchor: string, first: string): string {
  const matcher = anchorMatcher(anchor);
  let best: { chunkId: string; rank: number } | undefined;
  for (const { chunkId, path } of sections) {
    const match = matcher.match(path);
    if (match === undefined) continue;
    const rank = ANCHOR_MATCHES.indexOf(match);
    if (best === undefined || rank < best.rank) best = { chunkId, rank };
    if (rank === 0 || (rank === 1 && matcher.slugSpelled)) break;
  }
  return best?.chunkId ?? first;
}

/**
 * The sections of a page in order, from its first chunk on ({@link MAX_ANCHOR_WALK} chunks at
 * most): each chunk's heading path below the title (a section whose heading has no chunk of its
 * own begins in the first chunk under it), then each heading in its text (small sections merged
 * into one chunk: Sphinx's `#### @typing.final`).
 */
async function pageSections(index: IndexBackend, filter: SearchFilter | undefined, first: Chunk): Promise<PageSection[]> {
  const sections: PageSection[] = [];
  let chunk: Chunk | undefined = first;
  for (let walked = 0; chunk !== undefined && walked < MAX_ANCHOR_WALK; walked++) {
    const { chunkId, headingPath } = chunk;
    for (let depth = 2; depth <= headingPath.length; depth++) sections.push({ chunkId, path: headingPath.slice(0, depth) });
    for (const heading of textHeadings(chunk.text.split('\n'))) sections.push({ chunkId, path: pathUnder(headingPath, heading) ?? [...headingPath] });
    chunk = chunk.nextChunkId === undefined ? undefined : await index.getChunk(chunk.nextChunkId, filter);
  }
  return sections;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
