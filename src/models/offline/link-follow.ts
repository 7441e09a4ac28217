import { linkTargetDocIds } from '../../corpus/markdown/link-targets.ts';
import { markdownLinks } from '../../agent/session/passage-links.ts';
import type { Conversation, Passage } from './conversation.ts';
import type { EvidenceView, Sentence } from './evidence-view.ts';
import { termSet } from '../../text/text.ts';

/** The internal links of a text: the search session's own reading of them (it resolves them to chunks). */
export { markdownLinks };

/** A link of the evidence to a page not seen yet, with how much its sentence says about the question. */
export interface LinkToFollow {
  /** The link's text, as written (`the events system`). */
  text: string;
  href: string;
  /** The doc ids the link may name, most likely first (`linkTargetDocIds`). */
  docIds: string[];
  /**
   * The chunks to read for it: the one the session resolved the link to (the section its anchor
   * names: `stdtypes.html#list` leads to "Lists", not to the page's opening), else the first
   * chunk of each candidate page.
   */
  chunkIds: string[];
  /** Weighted question terms of the link's sentence and text. */
  score: number;
  /** Where the link was read. */
  chunkId: string;
}

/** Tunables of link following; the defaults are what the planner ships (docs/calibration.md). */
export interface LinkFollowOptions {
  /** Links followed at most per run. */
  limit: number;
  /** Weighted question terms the link's sentence (with the link's text) must hold. */
  minScore: number;
}

export const DEFAULT_LINK_FOLLOW: LinkFollowOptions = { limit: 3, minScore: 1 };

/**
 * Links in the passages read so far whose target page was not seen, best first: a link in a
 * sentence that talks about the question ("Use [the events system](/docs/worker-events) to detect
 * when your workers are overwhelmed") names the page that holds the next fact, by the link
 * itself rather than by guessed terms. A sentence scores the weights of the question terms it
 * holds, its link's text included; the passage's rank in its search breaks ties. Each target
 * page counts once (its best link); pages already seen, links to the page itself and links whose
 * every candidate id was already tried are left out.
 *
 * @example
 * linksToFollow(view, conversation, { limit: 1, minScore: 1 })[0]?.href; // '/docs/worker-events' (docIds: 'docs-worker-events', 'worker-events', ...)
 */
export function linksToFollow(view: EvidenceView, conversation: Conversation, options: LinkFollowOptions = DEFAULT_LINK_FOLLOW): LinkToFollow[] {
  const seenDocs = new Set(view.passages.map((passage) => passage.docId));
  const tried = new Set(conversation.readChunkIds);
  const best = new Map<string, LinkToFollow & { rank: number }>();
  for (const sentence of view.sentences) {
    if (sentence.code || sentence.heading) continue;
    for (const { text, href } of markdownLinks(sentence.text)) {
      const chunkIds = targetChunkIds(sentence.passage, href);
      const docIds = chunkIds.map(docIdOf);
      if (docIds.length === 0 || docIds.some((docId) => seenDocs.has(docId))) continue;
      if (chunkIds.every((chunkId) => tried.has(chunkId))) continue;
      const score = sentenceScore(view, sentence, text);
      if (score < options.minScore) continue;
      const key = docIds.at(-1) ?? '';
      const existing = best.get(key);
      const rank = sentence.passage.searchIndex * 100 + sentence.passage.rank;
      if (!existing || score > existing.score || (score === existing.score && rank < existing.rank)) {
        best.set(key, { text, href, docIds, chunkIds, score, chunkId: sentence.passage.chunkId, rank });
      }
    }
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || a.rank - b.rank || a.href.localeCompare(b.href))
    .slice(0, options.limit)
    .map(({ rank: _rank, ...link }) => link);
}

/**
 * The chunks a link of a passage may name, most likely first, other than the passage's own page's:
 * the one the session resolved it to (none when it said the link names no page the run may read),
 * else the first chunk of each candidate its href spells (`linkTargetDocIds`), for the index to
 * tell which exists.
 */
function targetChunkIds(passage: Passage, href: string): string[] {
  const resolved = passage.links?.get(href);
  const chunkIds = resolved === undefined ? (passage.links?.has(href) ? [] : linkTargetDocIds(href, passage.docId).map(firstChunkId)) : resolved === null ? [] : [resolved];
  return chunkIds.filter((chunkId) => docIdOf(chunkId) !== passage.docId);
}

/** The page of a chunk id (`<doc_id>#<n>`). */
function docIdOf(chunkId: string): string {
  return chunkId.replace(/#[^#]*$/, '');
}

/**
 * The first chunk of a document: every indexed page has one (`<doc_id>#0`).
 *
 * @example
 * firstChunkId('worker-events'); // 'worker-events#0'
 */
export function firstChunkId(docId: string): string {
  return `${docId}#0`;
}


/** Weighted question terms of a sentence, its link's text included (each term once). */
function sentenceScore(view: EvidenceView, sentence: Sentence, linkText: string): number {
  return view.heldWeight(new Set([...sentence.terms, ...termSet(linkText)]));
}
