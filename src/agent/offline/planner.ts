import type { Conversation, Passage } from './conversation.ts';
import { EvidenceView, type Sentence } from './evidence-view.ts';
import { needsSearch, type QuestionAnalysis } from './question.ts';
import { contentTerms, entities, identifiers, linkTexts, stem, STOPWORDS, words } from './text.ts';

/** What the planner does next. */
export type PlannerAction =
  | { type: 'search'; query: string; version?: string }
  | { type: 'read'; chunkIds: string[] }
  | { type: 'answer' }
  | { type: 'direct' };

/** Tunables of the planner; defaults are what `atlas` ships. */
export interface PlannerOptions {
  /** Searches the planner makes at most, whatever the loop allows (default 3). */
  maxSearches: number;
  /** Sections read before answering, when the best passages were only snippets (default 2). */
  readsBeforeAnswer: number;
  /** Share of a part's weighted terms one sentence must hold for the part to count as covered. */
  coverThreshold: number;
}

export const DEFAULT_PLANNER_OPTIONS: PlannerOptions = { maxSearches: 3, readsBeforeAnswer: 3, coverThreshold: 0.75 };

/** A possible next search: a term learned from the evidence, and where it was learned. */
export interface Bridge {
  term: string;
  score: number;
  sentence: Sentence;
  /** The name of a linked page: its title alone finds it, so the query stays short. */
  link: boolean;
}

/**
 * Decides the next step from the conversation so far: the first search, a hop built from what
 * the evidence taught, reading sections whose snippets matter, or the final answer.
 */
export function nextAction(
  analysis: QuestionAnalysis,
  conversation: Conversation,
  toolChoice: 'auto' | 'required' | 'none',
  options: PlannerOptions = DEFAULT_PLANNER_OPTIONS,
): PlannerAction {
  if (toolChoice === 'none' || conversation.repairRequested) return { type: 'answer' };
  const version = versionInPlay(analysis, conversation);
  if (conversation.searches.length === 0) {
    if (toolChoice === 'auto' && !needsSearch(analysis.question)) return { type: 'direct' };
    return { type: 'search', query: analysis.question, ...(version ? { version } : {}) };
  }
  const view = new EvidenceView(analysis, conversation, version);
  const searchesMade = conversation.searches.filter((search) => !search.error).length;
  const budgetLeft = Math.min(options.maxSearches, conversation.announcedBudget ?? Number.POSITIVE_INFINITY) - searchesMade;
  const refused = conversation.searches.at(-1)?.error !== undefined;
  const minSearches = Math.min(analysis.compositional ? 3 : 2, options.maxSearches);
  const done = searchesMade >= minSearches && uncoveredParts(analysis, view, options).length === 0;
  const lastSearch = conversation.searches.length - 1;
  const readSinceSearch = conversation.readAfterSearch.includes(lastSearch);
  if (!readSinceSearch && options.readsBeforeAnswer > 0 && toolChoice !== 'required') {
    // Snippets are cut: read the best new passages in full before hopping or answering.
    const toRead = chunksWorthReading(analysis, view, options.readsBeforeAnswer, lastSearch);
    if (toRead.length > 0) return { type: 'read', chunkIds: toRead };
  }
  if (budgetLeft > 0 && !refused && !done) {
    const query = nextQuery(analysis, conversation, view);
    if (query) return { type: 'search', query, ...(version ? { version } : {}) };
  }
  return { type: 'answer' };
}

/** The release line of the run: named in the question, or already used by earlier searches. */
export function versionInPlay(analysis: QuestionAnalysis, conversation: Conversation): string | undefined {
  return conversation.sessionVersion ?? analysis.version ?? conversation.searches.find((search) => search.version)?.version;
}

/** Parts of the question no single sentence of the evidence covers. */
export function uncoveredParts(analysis: QuestionAnalysis, view: EvidenceView, options: PlannerOptions) {
  return analysis.parts.filter((part) => !view.sentences.some((sentence) => view.overlap(part.terms, sentence.terms) >= options.coverThreshold));
}

/**
 * The next hop: the best bridge term learned from the evidence, plus the question terms still
 * unresolved. Falls back to the least covered part of the question. Never repeats a query.
 */
export function nextQuery(analysis: QuestionAnalysis, conversation: Conversation, view: EvidenceView): string | undefined {
  const previous = new Set(conversation.searches.map((search) => normalizeQuery(search.query)));
  const bridges = rankBridges(analysis, conversation, view);
  const foundAnchors = new Set(
    analysis.anchors.filter((anchor) => isFound(anchor, view)).flatMap((anchor) => words(anchor).map(stem)),
  );
  for (const bridge of bridges.slice(0, 6)) {
    const bridgeWords = new Set(words(bridge.term));
    const companions = bridges
      .filter((other) => other !== bridge && other.sentence === bridge.sentence && other.score >= bridge.score * 0.3)
      .filter((other) => !words(other.term).every((word) => bridgeWords.has(word)) && !words(bridge.term).every((word) => words(other.term).includes(word)))
      .slice(0, 2)
      .map((other) => other.term);
    const terms = bridge.link ? [bridge.term] : [bridge.term, ...companions];
    const resolved = new Set([...bridge.sentence.terms, ...foundAnchors, ...terms.flatMap((term) => words(term).map(stem))]);
    // The question words the evidence has least to say about are the ones still open.
    const open = analysis.terms.filter((term) => !resolved.has(term) && view.weight(term) >= 1).slice(0, bridge.link ? 0 : 6);
    const query = [...terms, ...originalWords(analysis.question, open)].join(' ');
    if (!previous.has(normalizeQuery(query))) return query;
  }
  const [weakest] = [...analysis.parts].sort(
    (a, b) => bestOverlap(view, a.terms) - bestOverlap(view, b.terms) || a.text.localeCompare(b.text),
  );
  if (weakest && !previous.has(normalizeQuery(weakest.text)) && analysis.parts.length > 1) return weakest.text;
  return undefined;
}

/**
 * Terms learned from the evidence that could lead to the next page: identifiers, names of
 * linked pages and named entities, found in sentences that share terms with the question.
 * Scored by that overlap, the passage's rank and recency; terms already in the question or in
 * an earlier query are left out.
 */
export function rankBridges(analysis: QuestionAnalysis, conversation: Conversation, view: EvidenceView): Bridge[] {
  const questionWords = new Set(words(analysis.question).map(stem));
  const queried = new Set(conversation.searches.flatMap((search) => words(search.query).map(stem)));
  const lastSearch = conversation.searches.length - 1;
  const anchorPages = new Set(view.passages.filter((passage) => analysis.anchors.some((anchor) => isPageAbout(passage, anchor))).map((passage) => passage.docId));
  const scores = new Map<string, Bridge>();
  const keys = new Set(analysis.keyTerms);
  const sentenceOverlap = (sentence: Sentence) => {
    // Relation words ("played", "river", "born") pick the sentence; the anchor's name mostly picks the page.
    let overlap = 0;
    for (const term of view.matchTerms) if (sentence.terms.has(term)) overlap += keys.has(term) ? 0.5 : view.weight(term);
    return overlap;
  };
  // Proper nouns are capitalised mid-sentence too; a capitalised word seen only at the start of a
  // sentence or table cell ("Side", "Producer") is an ordinary word.
  const properWords = new Set<string>();
  for (const passage of view.passages) {
    for (const text of passage.texts) for (const match of text.matchAll(/[a-z,;]\s+([A-Z][\p{L}\p{N}]*)/gu)) properWords.add(match[1] ?? '');
  }
  // Identifiers whose own section was already seen (they title a heading): nothing new behind them.
  const defined = new Set<string>();
  for (const passage of view.passages) {
    const headings = [passage.heading, ...passage.texts.flatMap((text) => text.match(/^#{1,6} .*$/gm) ?? [])];
    for (const heading of headings) for (const identifier of identifiers(heading)) defined.add(identifier.toLowerCase());
  }
  const passageBest = new Map<string, number>();
  for (const sentence of view.sentences) {
    const chunkId = sentence.passage.chunkId;
    passageBest.set(chunkId, Math.max(passageBest.get(chunkId) ?? 0, sentenceOverlap(sentence)));
  }
  // A link names a concept; when the passage's relevant sentences talk about that concept
  // ("must be greater than the lease" ... "[Leases](leases.md)"), the link inherits their weight.
  const conceptOverlap = (link: string, chunkId: string) => {
    const linkWords = words(link).filter((word) => !STOPWORDS.has(word)).map(stem);
    let best = 0;
    for (const other of view.sentences) {
      if (other.passage.chunkId !== chunkId || !linkWords.every((word) => other.terms.has(word))) continue;
      best = Math.max(best, sentenceOverlap(other));
    }
    return best;
  };
  for (const sentence of view.sentences) {
    const own = sentenceOverlap(sentence);
    // A link in a relevant passage names the page with the next fact, even from a sentence of its
    // own ("The lease setting is described in [Leases](leases.md).").
    const links = linkTexts(sentence.text);
    const chunkId = sentence.passage.chunkId;
    const linkOverlap = (link: string) =>
      Math.max(own > 0 ? own : 0.25 * (passageBest.get(chunkId) ?? 0), conceptOverlap(link, chunkId));
    if (own === 0 && links.length === 0) continue;
    const tokens = words(sentence.text).map(stem);
    const { passage } = sentence;
    const position = (1 / (1 + 0.25 * Math.min(passage.rank, 8))) * (anchorPages.has(passage.docId) ? 2 : 1);
    const recency = passage.searchIndex === lastSearch ? 1.25 : 1;
    // Links name the page holding the next fact; identifiers in code samples are often just local names.
    const candidates: Array<[string, number]> = [
      ...links.map((term): [string, number] => [term, 2]),
      ...identifiers(sentence.text)
        // A plain word in backticks (`leased`, `str`) is a value, not a thread to follow.
        .filter((term) => !/^[a-z]+$/.test(term))
        .map((term): [string, number] => [term, sentence.code ? 0.75 : 1.5]),
      ...entities(sentence.text)
        .filter((term) => term.includes(' ') || properWords.has(term) || /^[A-Z0-9]+$/.test(term))
        .filter((term) => identifiers(term).length === 0)
        .map((term): [string, number] => [term, 1]),
    ];
    for (const [term, boost] of candidates) {
      const overlap = links.includes(term) ? linkOverlap(term) : own;
      if (overlap === 0) continue;
      const termWords = words(term).filter((word) => !STOPWORDS.has(word)).map(stem);
      if (termWords.length === 0 || termWords.length > 6) continue;
      if (termWords.every((word) => questionWords.has(word) || queried.has(word))) continue;
      const key = termWords.join(' ');
      const adjective = termWords.length === 1 && /(?:an|ian|ese|ish|ic)$/.test(termWords[0] ?? '') && boost === 1 ? 0.3 : 1;
      const novelty = termWords.filter((word) => !questionWords.has(word)).length / termWords.length;
      // A term many seen passages already mention is explored; one mentioned once leads somewhere new.
      const isDefined = [term, ...identifiers(term)].some((part) => defined.has(part.toLowerCase()));
      const explored = boost > 1 ? (isDefined ? 0.3 : 1) / (1 + 0.5 * (mentions(view, term) - 1)) : 1;
      // Within a sentence, the candidate next to the relation word wins ("directed by Tim Burton").
      const near = overlap * (0.5 + (0.5 * proximity(view, keys, tokens, termWords[0] ?? '')) / overlap);
      const score = near * position * recency * boost * adjective * novelty * explored;
      const existing = scores.get(key);
      if (!existing) scores.set(key, { term: cleanTerm(term), score, sentence, link: links.includes(term) });
      else if (boost > 1) {
        // An identifier or link met in several relevant sentences is the thread to follow...
        existing.score += score * 0.5;
        if (score > existing.score) existing.sentence = sentence;
      } else if (score > existing.score) {
        // ...but a name repeated all over the evidence ("NBA") is not thereby the next hop.
        existing.score = score;
        existing.sentence = sentence;
      }
    }
  }
  return [...scores.values()].sort((a, b) => b.score - a.score || a.term.localeCompare(b.term));
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

/** How many seen passages mention `term` (at least 1). */
function mentions(view: EvidenceView, term: string): number {
  const needle = term.toLowerCase();
  return Math.max(1, view.passages.filter((passage) => passage.texts.some((text) => text.toLowerCase().includes(needle))).length);
}

/** True when a page about `anchor` was seen. */
function isFound(anchor: string, view: EvidenceView): boolean {
  return view.passages.some((passage) => isPageAbout(passage, anchor));
}

/** A page is about an anchor when the anchor's words all occur in its title, doc id or heading. */
function isPageAbout(passage: Passage, anchor: string): boolean {
  const anchorWords = words(anchor).filter((word) => !STOPWORDS.has(word)).map(stem);
  const title = new Set(words(`${passage.title ?? ''} ${passage.docId.replace(/-/g, ' ')} ${passage.heading}`).map(stem));
  return anchorWords.length > 0 && anchorWords.every((word) => title.has(word));
}

function questionOverlap(view: EvidenceView, sentence: Sentence): number {
  let score = 0;
  for (const term of view.matchTerms) if (sentence.terms.has(term)) score += view.weight(term);
  return score;
}

function bestOverlap(view: EvidenceView, terms: string[]): number {
  return Math.max(0, ...view.sentences.map((sentence) => view.overlap(terms, sentence.terms)));
}

/** New passages of the last search worth reading in full: snippets only, best question overlap first. */
function chunksWorthReading(analysis: QuestionAnalysis, view: EvidenceView, limit: number, lastSearch: number): string[] {
  if (analysis.terms.length === 0) return [];
  const best = new Map<string, number>();
  for (const sentence of view.sentences) {
    const { passage } = sentence;
    if (passage.full || passage.searchIndex !== lastSearch) continue;
    const score = questionOverlap(view, sentence) / (1 + 0.1 * passage.rank);
    if (score > (best.get(passage.chunkId) ?? 0)) best.set(passage.chunkId, score);
  }
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([chunkId]) => chunkId);
}

function originalWords(question: string, stems: string[]): string[] {
  const result: string[] = [];
  for (const word of words(question)) {
    if (STOPWORDS.has(word)) continue;
    if (stems.includes(stem(word)) && !result.some((existing) => stem(existing) === stem(word))) result.push(word);
  }
  return result;
}

function cleanTerm(term: string): string {
  return term.replace(/^`|`$/g, '').trim();
}

function normalizeQuery(query: string): string {
  return contentTerms(query).sort().join(' ');
}
