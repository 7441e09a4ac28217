import type { Conversation, Passage } from './conversation.ts';
import type { EvidenceView, Sentence } from './evidence-view.ts';
import type { QuestionAnalysis } from '../../text/question.ts';
import { isInformativeTerm } from './informative.ts';
import { entities, linkTexts } from '../../text/names.ts';
import { identifiers, stem, STOPWORDS, words } from '../../text/text.ts';

/**
 * The weight of a bridge met off the chain of hops (see `onChain`), where a page about what the
 * question names weighs twice. Measured at 0.5, 0.25 and 0.001 on the four dev sets: 0.5 and
 * 0.25 the same (musique-dev recall 0.762 -> 0.779, no other set changed), 0.001 one answer fewer
 * that holds the gold answer (docs/calibration.md, Session 21). 0.25, so that a sentence off the
 * chain that holds the question's relation words ("the country's first president", of another
 * country) weighs less than the page about the name: at 0.5 it still wins when it is alone.
 */
const OFF_CHAIN_SHARE = 0.25;

/** A possible next search: a term learned from the evidence, and where it was learned. */
export interface Bridge {
  term: string;
  score: number;
  sentence: Sentence;
  /** The name of a linked page: its title alone finds it, so the query stays short. */
  link: boolean;
  /** What the term is: the text of a link, an identifier, or a proper name. */
  kind: 'link' | 'identifier' | 'name';
}

/**
 * Terms learned from the evidence that could lead to the next page: identifiers, names of
 * linked pages and named entities, found in sentences that share terms with the question.
 * Scored by that overlap, the passage's rank and recency; terms already in the question or in
 * an earlier query are left out.
 */
export function rankBridges(analysis: QuestionAnalysis, conversation: Conversation, view: EvidenceView): Bridge[] {
  const facts = evidenceFacts(analysis, conversation, view);
  const scores = new Map<string, Bridge>();
  for (const sentence of view.sentences) {
    const own = facts.overlap(sentence);
    const links = linkTexts(sentence.text);
    if (own === 0 && links.length === 0) continue;
    const tokens = words(sentence.text).map(stem);
    const { passage } = sentence;
    const position = (1 / (1 + 0.25 * Math.min(passage.rank, 8))) * (facts.anchorPages.has(passage.docId) ? 2 : 1) * (facts.onChain(sentence) ? 1 : OFF_CHAIN_SHARE);
    const recency = passage.searchIndex === facts.lastSearch ? 1.25 : 1;
    for (const [term, boost, kind] of candidatesOf(sentence, links, facts.properWords)) {
      if (!isInformativeTerm(term)) continue;
      // A link in a relevant passage names the page with the next fact, even from a sentence of
      // its own ("The lease setting is described in [Leases](leases.md).").
      const overlap = links.includes(term)
        ? Math.max(own > 0 ? own : 0.25 * (facts.passageBest.get(passage.chunkId) ?? 0), facts.conceptOverlap(term, passage.chunkId))
        : own;
      if (overlap === 0) continue;
      const termWords = words(term).filter((word) => !STOPWORDS.has(word)).map(stem);
      if (termWords.length === 0 || termWords.length > 6) continue;
      if (termWords.every((word) => facts.questionWords.has(word) || facts.queried.has(word))) continue;
      const adjective = termWords.length === 1 && /(?:an|ian|ese|ish|ic)$/.test(termWords[0] ?? '') && boost === 1 ? 0.3 : 1;
      const novelty = termWords.filter((word) => !facts.questionWords.has(word)).length / termWords.length;
      // An identifier many seen passages mention, or whose own section was seen, is explored.
      const isDefined = [term, ...identifiers(term)].some((part) => facts.defined.has(part.toLowerCase()));
      const explored = boost > 1 && !links.includes(term) ? (isDefined ? 0.3 : 1) / (1 + 0.5 * (facts.mentions(term) - 1)) : 1;
      // Within a sentence, the candidate next to the relation word wins ("directed by Tim Burton").
      const near = overlap * (0.5 + (0.5 * proximity(view, facts.keys, tokens, termWords[0] ?? '')) / overlap);
      const score = near * position * recency * boost * adjective * novelty * explored;
      record(scores, termWords.join(' '), { term: cleanTerm(term), score, sentence, link: links.includes(term), kind }, boost > 1);
    }
  }
  return [...scores.values()].sort((a, b) => b.score - a.score || a.term.localeCompare(b.term));
}

/** What bridge scoring needs to know about the evidence as a whole, computed once per decision. */
function evidenceFacts(analysis: QuestionAnalysis, conversation: Conversation, view: EvidenceView) {
  const keys = new Set(analysis.keyTerms);
  // Relation words ("played", "river", "born") pick the sentence; the anchor's name mostly picks the page.
  const overlap = (sentence: Sentence) => {
    let total = 0;
    for (const term of view.matchTerms) if (sentence.terms.has(term)) total += keys.has(term) ? 0.5 : view.weight(term);
    return total;
  };
  // Proper nouns are capitalised mid-sentence too; a capitalised word seen only at the start of a
  // sentence or table cell ("Side", "Producer") is an ordinary word.
  const properWords = new Set<string>();
  // Identifiers whose own section was already seen (they title a heading): nothing new behind them.
  const defined = new Set<string>();
  for (const passage of view.passages) {
    for (const text of passage.texts) for (const match of text.matchAll(/[a-z,;]\s+([A-Z][\p{L}\p{N}]*)/gu)) properWords.add(match[1] ?? '');
    const headings = [passage.heading, ...passage.texts.flatMap((text) => text.match(/^#{1,6} .*$/gm) ?? [])];
    for (const heading of headings) for (const identifier of identifiers(heading)) defined.add(identifier.toLowerCase());
  }
  const passageBest = new Map<string, number>();
  for (const sentence of view.sentences) {
    const chunkId = sentence.passage.chunkId;
    passageBest.set(chunkId, Math.max(passageBest.get(chunkId) ?? 0, overlap(sentence)));
  }
  // A link names a concept; when the passage's relevant sentences talk about that concept
  // ("must be greater than the lease" ... "[Leases](leases.md)"), the link inherits their weight.
  const conceptOverlap = (link: string, chunkId: string) => {
    const linkWords = words(link).filter((word) => !STOPWORDS.has(word)).map(stem);
    let best = 0;
    for (const other of view.sentences) {
      if (other.passage.chunkId === chunkId && linkWords.every((word) => other.terms.has(word))) best = Math.max(best, overlap(other));
    }
    return best;
  };
  // How many seen passages mention a term (at least 1); texts lowercased once, not per candidate.
  const lowered = view.passages.map((passage) => passage.texts.join('\n').toLowerCase());
  const mentions = (term: string) => {
    const needle = term.toLowerCase();
    return Math.max(1, lowered.filter((text) => text.includes(needle)).length);
  };
  // A name most seen passages mention (the product's own name) leads nowhere in particular.
  const common = (term: string) => {
    const count = mentions(term);
    return count >= 3 && count >= 0.4 * lowered.length;
  };
  const anchorPages = new Set(view.passages.filter((passage) => analysis.anchors.some((anchor) => isPageAbout(passage, anchor))).map((passage) => passage.docId));
  const hopSearches = new Set(conversation.searches.flatMap((search, index) => (search.query === analysis.question ? [] : [index])));
  const anchorTerms = analysis.anchors.map((anchor) => words(anchor).filter((word) => !STOPWORDS.has(word)).map(stem));
  return {
    keys,
    overlap,
    mentions,
    common,
    properWords,
    defined,
    passageBest,
    conceptOverlap,
    questionWords: new Set(words(analysis.question).map(stem)),
    queried: new Set(conversation.searches.flatMap((search) => words(search.query).map(stem))),
    // The last hop: a search that continued the question's own ranking is not one.
    lastSearch: lastHop(analysis, conversation),
    // Once a page about what the question names was found, the chain of hops runs from it (or
    // from a hop's results, or a sentence that names it): a sentence elsewhere that matches the
    // question's relation words ("the country's first president", of another country) answers
    // some other question.
    onChain: (sentence: Sentence) => {
      if (anchorPages.size === 0 || anchorPages.has(sentence.passage.docId)) return true;
      if (hopSearches.has(sentence.passage.searchIndex)) return true;
      return anchorTerms.some((terms) => terms.every((term) => sentence.terms.has(term) || sentence.context.has(term)));
    },
    anchorPages,
  };
}

/** Index of the last search that was not a page of the question's own ranking after its first. */
function lastHop(analysis: QuestionAnalysis, conversation: Conversation): number {
  for (let index = conversation.searches.length - 1; index >= 0; index--) {
    const search = conversation.searches[index]!;
    if (search.query !== analysis.question || (search.page ?? 1) === 1) return index;
  }
  return -1;
}

/**
 * Candidate bridges of one sentence with their type weight: links name the page holding the next
 * fact (2); identifiers (1.5; 0.75 in code samples, where they are often local names); names (1).
 */
function candidatesOf(sentence: Sentence, links: string[], properWords: Set<string>): Array<[string, number, Bridge['kind']]> {
  return [
    ...links.map((term): [string, number, Bridge['kind']] => [term, 2, 'link']),
    ...identifiers(sentence.text)
      // A plain word in backticks (`leased`, `str`) is a value, not a thread to follow.
      .filter((term) => !/^[a-z]+$/.test(term))
      .map((term): [string, number, Bridge['kind']] => [term, sentence.code ? 0.75 : 1.5, 'identifier']),
    ...entities(sentence.text)
      .filter((term) => term.includes(' ') || properWords.has(term) || /^[A-Z0-9]+$/.test(term))
      .filter((term) => identifiers(term).length === 0)
      .map((term): [string, number, Bridge['kind']] => [term, 1, 'name']),
  ];
}

/**
 * Keeps a candidate's score: an identifier or link met in several relevant sentences is the
 * thread to follow (mentions add up), but a name repeated all over the evidence ("NBA") is not
 * thereby the next hop (its best mention counts).
 */
function record(scores: Map<string, Bridge>, key: string, bridge: Bridge, accumulate: boolean): void {
  const existing = scores.get(key);
  if (!existing) scores.set(key, bridge);
  else if (accumulate) {
    existing.score += bridge.score * 0.5;
    if (bridge.score > existing.score) existing.sentence = bridge.sentence;
  } else if (bridge.score > existing.score) {
    existing.score = bridge.score;
    existing.sentence = bridge.sentence;
  }
}

/** Question terms in a sentence, each weighted by its word distance to the candidate. */
function proximity(view: EvidenceView, keys: Set<string>, tokens: string[], firstWord: string): number {
  const at = tokens.indexOf(firstWord);
  let score = 0;
  tokens.forEach((token, position) => {
    const weight = keys.has(token) ? 0.5 : view.weight(token);
    if (weight > 0) score += weight / (1 + Math.abs(position - (at < 0 ? position : at)) / 4);
  });
  return score;
}



/** True when a page about `anchor` was seen. */
export function isFound(anchor: string, view: EvidenceView): boolean {
  return view.passages.some((passage) => isPageAbout(passage, anchor));
}

/** A page is about an anchor when the anchor's words all occur in its title, doc id or heading. */
export function isPageAbout(passage: Passage, anchor: string): boolean {
  const anchorWords = words(anchor).filter((word) => !STOPWORDS.has(word)).map(stem);
  const title = new Set(words(`${passage.title ?? ''} ${passage.docId.replace(/-/g, ' ')} ${passage.heading}`).map(stem));
  return anchorWords.length > 0 && anchorWords.every((word) => title.has(word));
}

function cleanTerm(term: string): string {
  return term.replace(/^`|`$/g, '').trim();
}

