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
      const docIds = targetDocIds(sentence.passage, href);
      if (docIds.length === 0 || docIds.some((docId) => seenDocs.has(docId))) continue;
      if (docIds.every((docId) => tried.has(firstChunkId(docId)))) continue;
      const score = sentenceScore(view, sentence, text);
      if (score < options.minScore) continue;
      const key = docIds.at(-1) ?? '';
      const existing = best.get(key);
      const rank = sentence.passage.searchIndex * 100 + sentence.passage.rank;
      if (!existing || score > existing.score || (score === existing.score && rank < existing.rank)) {
        best.set(key, { text, href, docIds, score, chunkId: sentence.passage.chunkId, rank });
      }
    }
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || a.rank - b.rank || a.href.localeCompare(b.href))
    .slice(0, options.limit)
    .map(({ rank: _rank, ...link }) => link);
}

/**
 * The pages a link of a passage may name, most likely first, other than the passage's own: the
 * one the session resolved it to (none when it said the link names no page the run may read), else
 * the candidates its href spells (`linkTargetDocIds`), for the index to tell which exists.
 */
function targetDocIds(passage: Passage, href: string): string[] {
  const resolved = passage.links?.get(href);
  const docIds = resolved === undefined ? (passage.links?.has(href) ? [] : linkTargetDocIds(href, passage.docId)) : resolved === null ? [] : [resolved.replace(/#[^#]*$/, '')];
  return docIds.filter((docId) => docId !== passage.docId);
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
  const terms = new Set([...sentence.terms, ...termSet(linkText)]);
  let total = 0;
  for (const term of view.matchTerms) if (terms.has(term)) total += view.weight(term);
  return total;
}
