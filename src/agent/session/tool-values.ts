import type { Chunk } from '../../corpus/types.ts';
import type { Hit } from '../../index/types.ts';
import type { QueryCoverage } from './query-coverage.ts';
import type { LineMatch } from './section-matches.ts';
import type { PassageLink } from './passage-links.ts';
import { continuationNote, estimateTokens, type SectionPage } from './section-page.ts';

/** What a tool returns to the model: a value, or an error text the model can read. */
export type ToolOutcome = { ok: true; value: ToolValue } | { ok: false; error: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolValue = { [key: string]: any };

/**
 * A chunk's heading path as tools and citations spell it: `"Title > Section > Subsection"`.
 *
 * @example
 * headingPathText({ headingPath: ['Configuration', 'worker options', 'worker.maxPoolSize'] }); // 'Configuration > worker options > worker.maxPoolSize'
 */
export function headingPathText(chunk: Pick<Chunk, 'headingPath'>): string {
  return chunk.headingPath.join(' > ');
}

/**
 * Where a page sits in its section, in the snake_case the model reads: `offset`, `next_offset`
 * (null when complete), `total_chars`, `remaining_chars`, `remaining_tokens` (estimated),
 * `complete`, and a `note` with the call that reads on when the page was cut.
 *
 * @example
 * pageFields('codes#1', page); // { offset: 0, next_offset: 768, total_chars: 10239, remaining_chars: 9471, remaining_tokens: 2368, complete: false, note: '9471 more characters ...' }
 */
export function pageFields(chunkId: string, page: SectionPage, extraNote = ''): ToolValue {
  const note = continuationNote(chunkId, page);
  return {
    offset: page.offset,
    next_offset: page.nextOffset,
    total_chars: page.totalChars,
    remaining_chars: page.remainingChars,
    remaining_tokens: estimateTokens(page.remainingChars),
    complete: page.complete,
    ...(note === undefined ? {} : { note: note + extraNote }),
  };
}

/**
 * The page fields of a first page shown beside others (read_neighbors, full-text search):
 * `complete: true` alone when the whole section fits, else where to read on, as
 * {@link pageFields} without the offset (always 0).
 *
 * @example
 * firstPageFields('codes#2', page); // { complete: true }
 */
export function firstPageFields(chunkId: string, page: SectionPage): ToolValue {
  if (page.complete) return { complete: true };
  const { offset: _offset, ...fields } = pageFields(chunkId, page);
  return fields;
}

/** A passage shown by read_section: identity, heading path and one page of text with its page fields. */
export function passageValue(chunk: Chunk, page: SectionPage, extraNote = ''): ToolValue {
  return { ...passageIdentity(chunk), text: page.text, ...pageFields(chunk.chunkId, page, extraNote) };
}

/** A passage shown by read_neighbors: identity, heading path and its first page. */
export function neighborValue(chunk: Chunk, page: SectionPage): ToolValue {
  return { ...passageIdentity(chunk), text: page.text, ...firstPageFields(chunk.chunkId, page) };
}

function passageIdentity(chunk: Chunk): ToolValue {
  return {
    chunk_id: chunk.chunkId,
    doc_id: chunk.docId,
    title: chunk.title,
    heading: chunk.heading,
    heading_path: headingPathText(chunk),
    applies_to: chunk.appliesTo,
  };
}

/**
 * A neighbour shown beside a short section (`previous_section`, `next_section` of read_section):
 * its identity and first page, or, when that page was shown before, its identity and
 * `shown_before: true` alone.
 *
 * @example
 * contextValue(chunk, page, false); // { chunk_id: 'error-handling#4', ..., text: '...', complete: true }
 */
export function contextValue(chunk: Chunk, page: SectionPage, shownBefore: boolean): ToolValue {
  if (shownBefore) {
    const { chunk_id, heading, heading_path } = passageIdentity(chunk);
    return { chunk_id, heading, heading_path, shown_before: true };
  }
  return neighborValue(chunk, page);
}

/** The sentence a read_section note adds: where the query matches in the lines not shown yet, or that none does. */
export function matchesNote(query: string, matches: LineMatch[]): string {
  if (matches.length === 0) return ` No line not shown yet matches "${query}".`;
  const offsets = matches.map((match) => match.offset).join(', ');
  return matches.length === 1 ? ` The line matching "${query}" best starts at offset ${offsets}.` : ` Lines matching "${query}" start at offsets ${offsets}.`;
}

/** Already-seen passages a skip note names at most; the rest are counted. */
const MAX_SKIPPED_NAMED = 5;

/** What a page of results tells of itself. */
export interface SearchResultOptions {
  /** Already-seen passages the page passed over, in rank order: counted and named in the note. */
  skipped: Hit[];
  /** When the page is weak: with `coverage` when it is weak for covering too little of the query (the note says how much). */
  weak?: { coverage?: QueryCoverage };
  /** Chunks skipped because an earlier turn of the conversation was shown them: `shown_earlier` names them, the note only counts them. */
  shownEarlier?: ReadonlySet<string>;
  /** The chunks of a split table, by the id of each hit that is a part of one. */
  tables?: Map<string, string[]>;
  /** The page of text shown instead of a hit's snippet: the whole of a short passage, or (full-text mode) each hit's first page. */
  pages?: Map<string, SectionPage>;
  /** Full-text mode: every hit shows its first page and is named after its chunk's heading. */
  fullText?: boolean;
  /** The internal links of what is shown of each hit, with the chunks they name. */
  links?: Map<string, PassageLink[]>;
  /** Model labels the enforced filter did not allow (one message each). */
  conflicts?: string[];
  /** The query's first page matched no passage at all (none skipped either): the note says so, not "no new passages". */
  matchedNothing?: boolean;
}

/**
 * The value of a search_docs call: each hit named after the heading of the part of the chunk
 * that matched best (its snippet's; full-text mode: the chunk's), with its whole text when short
 * (`pages`: `text`, `complete: true`) or its snippet and `total_chars`, or in full-text mode its
 * first page; the internal links of what it shows with the chunks they name (`links`); a part of a split table names every part (`table_parts`); and a note naming model labels
 * the filter did not allow (`conflicts`), the already-seen passages passed over (id and heading,
 * so one can be read again), and weak matches with how much of the query the passages cover.
 *
 * @example
 * searchResultValue(hits, { skipped: [seenHit] }).note; // '1 already-seen passage skipped: guide#0 "Guide" (read_section re-reads one)'
 */
export function searchResultValue(fresh: Hit[], options: SearchResultOptions): ToolValue {
  const notes: string[] = [...(options.conflicts ?? [])];
  if (options.skipped.length > 0) notes.push(skippedNote(options.skipped, options.shownEarlier ?? new Set()));
  if (fresh.length === 0 && options.matchedNothing === true) notes.push('no passage matches the query: search with other words, or answer that the docs do not say');
  else if (fresh.length === 0) notes.push('no new passages: search for something else or answer');
  else if (options.weak) notes.push(weakNote(options.weak));
  return {
    results: fresh.map((hit) => {
      const page = options.pages?.get(hit.chunkId);
      // A hit is named after the part of the chunk that matched best (its snippet's); a first page of full-text mode after the chunk.
      const path = options.fullText === true ? hit.headingPath : (hit.snippetHeadingPath ?? hit.headingPath);
      const parts = options.tables?.get(hit.chunkId);
      const links = options.links?.get(hit.chunkId);
      return {
        chunk_id: hit.chunkId,
        doc_id: hit.docId,
        heading: path.at(-1) ?? hit.heading,
        heading_path: headingPathText({ headingPath: path }),
        applies_to: hit.appliesTo,
        score: Math.round(hit.score * 100) / 100,
        ...(page ? { text: page.text, ...firstPageFields(hit.chunkId, page) } : { snippet: hit.snippet, total_chars: hit.text.length }),
        ...(parts ? { table_parts: parts } : {}),
        ...(links ? { links: linksValue(links) } : {}),
      };
    }),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}

/** "N already-seen passages skipped", naming those this run was shown (`shown_earlier` names an earlier turn's). */
function skippedNote(skipped: Hit[], earlier: ReadonlySet<string>): string {
  const count = skipped.length === 1 ? '1 already-seen passage skipped' : `${skipped.length} already-seen passages skipped`;
  const thisRun = skipped.filter((hit) => !earlier.has(hit.chunkId));
  if (thisRun.length === 0) return count;
  const named = thisRun.slice(0, MAX_SKIPPED_NAMED).map((hit) => `${hit.chunkId} ${JSON.stringify(hit.heading)}`);
  const more = thisRun.length > MAX_SKIPPED_NAMED ? ` and ${thisRun.length - MAX_SKIPPED_NAMED} more` : '';
  return `${count}: ${named.join(', ')}${more} (read_section re-reads one)`;
}

function weakNote(weak: NonNullable<SearchResultOptions['weak']>): string {
  if (weak.coverage === undefined) return 'weak matches: rewrite the query or conclude';
  return `weak matches: these passages cover ${Math.round(weak.coverage.share * 100)}% of the query's words: rewrite the query or conclude`;
}

/**
 * The links of a passage as a tool shows them: each target as written in the text, with the
 * chunk it names, or null when it names no page the caller may read (the doc id is the chunk
 * id's part before `#`).
 *
 * @example
 * linksValue([{ text: 'maxWorkers', href: '/config/maxworkers', target: { doc_id: 'config-maxworkers', chunk_id: 'config-maxworkers#0' } }, { text: 'Old', href: './old.md' }]);
 * // { '/config/maxworkers': 'config-maxworkers#0', './old.md': null }
 */
export function linksValue(links: readonly PassageLink[]): Record<string, string | null> {
  return Object.fromEntries(links.map((link) => [link.href, link.target?.chunk_id ?? null]));
}
