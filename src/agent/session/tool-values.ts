import type { Chunk } from '../../corpus/types.ts';
import type { Hit } from '../../index/types.ts';
import type { LineMatch } from './section-matches.ts';
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

/** The sentence a read_section note adds when the query matches lines not shown yet. */
export function matchesNote(query: string, matches: LineMatch[]): string {
  if (matches.length === 0) return '';
  const offsets = matches.map((match) => match.offset).join(', ');
  return matches.length === 1 ? ` The line matching "${query}" best starts at offset ${offsets}.` : ` Lines matching "${query}" start at offsets ${offsets}.`;
}

/**
 * The value of a search_docs call: each hit with its snippet, or with the first page of its
 * text (`pages`, full-text mode), and a note naming model labels the filter did not allow
 * (`conflicts`), counting skipped passages and flagging weak matches.
 */
export function searchResultValue(
  fresh: Hit[],
  options: { skippedSeen: number; weak: boolean; pages?: Map<string, SectionPage>; conflicts?: string[] },
): ToolValue {
  const notes: string[] = [...(options.conflicts ?? [])];
  if (options.skippedSeen > 0) notes.push(`${options.skippedSeen} already-seen passages skipped`);
  if (fresh.length === 0) notes.push('no new passages: search for something else or answer');
  else if (options.weak) notes.push('weak matches: rewrite the query or conclude');
  return {
    results: fresh.map((hit) => {
      const page = options.pages?.get(hit.chunkId);
      return {
        chunk_id: hit.chunkId,
        doc_id: hit.docId,
        heading: hit.heading,
        heading_path: headingPathText(hit),
        applies_to: hit.appliesTo,
        score: Math.round(hit.score * 100) / 100,
        ...(page ? { text: page.text, ...firstPageFields(hit.chunkId, page) } : { snippet: hit.snippet }),
      };
    }),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}
