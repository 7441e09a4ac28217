import { isFound, rankBridges, type Bridge } from './bridges.ts';
import { learnedBridges, openParts } from './learned-bridges.ts';
import type { Conversation } from './conversation.ts';
import { EvidenceView } from './evidence-view.ts';
import { DEFAULT_LINK_FOLLOW, linksToFollow, type LinkFollowOptions } from './link-follow.ts';
import { commandPointers, DEFAULT_POINTERS, type PointerOptions } from './pointers.ts';
import { needsSearch, originalWords, type QuestionAnalysis } from '../../text/question.ts';
import { queryExpansions } from './related-terms.ts';
import { contentTerms, identifiers, stem, STOPWORDS, termSet, words } from '../../text/text.ts';

/** What the planner does next. */
export type PlannerAction =
  | { type: 'search'; query: string; version?: string; page?: number }
  | { type: 'read'; chunkIds: string[]; offsets?: Array<number | undefined> }
  | { type: 'answer' }
  | { type: 'direct' };

/** Tunables of the planner; defaults are what `atlas` ships. */
export interface PlannerOptions {
  /** Searches the planner makes at most, whatever the loop allows (default 3). */
  maxSearches: number;
  /** Sections read after each search, when its best passages were only snippets (default 5: every new passage of a search that shares a term with the question). */
  readsBeforeAnswer: number;
  /**
   * The kinds of bridge the planner hops with when one is the best bridge (default: names). On
   * the dev sets, identifiers and links learned from the evidence mostly led to pages the
   * question's own next results reach too, names to pages they do not (docs/calibration.md);
   * when the best bridge is of another kind, the search goes to the question's next page.
   */
  hopKinds: ReadonlyArray<Bridge['kind']>;
  /**
   * Links of the passages read that are followed before the last search (`limit` 0: none): the
   * first section of the page a relevant sentence links to is read, so the last search shows that
   * many passages fewer (link-follow.ts, docs/calibration.md).
   */
  followLinks: LinkFollowOptions;
  /**
   * Commands the question's best passages point to for a list they do not hold ("For the current
   * list of supported command line options you can run: `... --help`"): searched verbatim as
   * the last search, before a hop or the question's next page (pointers.ts, docs/calibration.md).
   */
  pointers: PointerOptions;
  /**
   * Searches a run spends at most on what it learned (default 1): an identifier named in a passage
   * it read, whose sentence answers part of the question (`learnedBridges`), searched with the
   * question's open parts before the question's next page (docs/calibration.md). 0: the question's
   * pages first, as before.
   */
  learnedHops: number;
  /**
   * Stop searching once the passages read state the answer (the same rule that decides to answer,
   * directness.ts): a researcher who has read the answer does not search on (default true).
   */
  stopWhenStated: boolean;
}

export const DEFAULT_PLANNER_OPTIONS: PlannerOptions = {
  maxSearches: 3,
  readsBeforeAnswer: 5,
  hopKinds: ['name'],
  followLinks: DEFAULT_LINK_FOLLOW,
  pointers: DEFAULT_POINTERS,
  learnedHops: 1,
  stopWhenStated: true,
};

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
  const lastSearch = conversation.searches.length - 1;
  const readSinceSearch = conversation.readAfterSearch.includes(lastSearch);
  if (!readSinceSearch && options.readsBeforeAnswer > 0 && toolChoice !== 'required') {
    // Snippets are cut: read the best new passages in full before hopping or answering.
    const toRead = chunksWorthReading(analysis, view, options.readsBeforeAnswer, lastSearch);
    if (toRead.length > 0) return { type: 'read', chunkIds: toRead };
  }
  // A long section was read only in part: read the pages holding the lines that match the search.
  const pages = matchingPagesToRead(view, lastSearch);
  if (pages.length > 0 && toolChoice !== 'required') {
    return { type: 'read', chunkIds: pages.map((page) => page.chunkId), offsets: pages.map((page) => page.offset) };
  }
  // Before the last search: read the pages that relevant sentences link to (once per run).
  if (budgetLeft === 1 && !refused && toolChoice !== 'required') {
    const links = linkReads(view, conversation, options.followLinks);
    if (links.length > 0) return { type: 'read', chunkIds: links };
  }
  if (budgetLeft > 0 && !refused) {
    const search = nextQuery(analysis, conversation, view, options);
    if (search) return { type: 'search', ...search, ...(version ? { version } : {}) };
  }
  return { type: 'answer' };
}

/** The release line of the run: named in the question, or already used by earlier searches. */
export function versionInPlay(analysis: QuestionAnalysis, conversation: Conversation): string | undefined {
  return conversation.sessionVersion ?? analysis.version ?? conversation.searches.find((search) => search.version)?.version;
}

/** Question terms a hop query carries at most besides its bridge. */
const MAX_QUESTION_TERMS = 12;

/**
 * The next search. What the run learned comes first: an identifier named in a passage it read
 * whose sentence answers part of the question (`learnedBridges`: an error code, a setting), asked
 * for with the question's open parts ("ORB-1202 step return instead"), at most
 * `learnedHops` times. Otherwise the question's next page; after that page, a command the
 * question's best passages point to for a list (pointers.ts), else a hop with the best bridge
 * learned from the evidence, joined to the question's terms, when that bridge is of a kind in
 * `hopKinds`; else the question's next page again, unless its last page brought nothing. So
 * paging is for when nothing new was learned, and the run sees at least what one search of as
 * many passages would when no confident bridge exists. Never repeats a query.
 *
 * @example
 * nextQuery(analysis, conversation, view); // { query: 'ORB-1202 step return instead' } after reading "... fails with `ORB-1202 PayloadTooLarge` ..."
 */
export function nextQuery(
  analysis: QuestionAnalysis,
  conversation: Conversation,
  view: EvidenceView,
  options: Pick<PlannerOptions, 'hopKinds' | 'pointers' | 'learnedHops'> = DEFAULT_PLANNER_OPTIONS,
): { query: string; page?: number } | undefined {
  const own = conversation.searches.filter((search) => search.query === analysis.question && search.error === undefined);
  // A page of the question that brought nothing new means its ranking is spent: the next page would too.
  const spent = own.at(-1)?.chunkIds.length === 0;
  const nextPage = spent ? undefined : { query: analysis.question, page: Math.max(0, ...own.map((search) => search.page ?? 1)) + 1 };
  const ranked = rankBridges(analysis, conversation, view);
  const hops = conversation.searches.filter((search) => search.query !== analysis.question).length;
  const paged = own.some((search) => (search.page ?? 1) > 1);
  // What the question's first page taught is asked for before its next page; once paged, a hop
  // takes the place of the last page only by the rules below. A question that names identifiers
  // itself is ranked by them already (identifier-first ranking): its next pages beat a name learned
  // around them (measured, docs/calibration.md).
  if (!paged && hops < options.learnedHops && identifiers(analysis.question).length === 0) {
    const learned = learnedQuery(analysis, conversation, view, ranked);
    if (learned !== undefined) return { query: learned };
  }
  // The question's second page before any guess: its ranks 6-10 are as good as most hops.
  if (!paged) return nextPage;
  // The docs' own pointer to where a list lives beats a bridge guessed from the evidence.
  const pointer = options.pointers.maxRank > 0 ? commandPointers(view, conversation, options.pointers)[0] : undefined;
  if (pointer !== undefined) return { query: pointer };
  const hop = bridgeQuery(analysis, conversation, view, options.hopKinds, ranked);
  return hop === undefined ? nextPage : { query: hop };
}

/**
 * A search for the best learned bridge not searched yet: the identifier, then the words of the
 * question's parts its sentence leaves open, as written ("what should the step return instead":
 * `step return instead`). A bridge whose sentence leaves no part open is not searched: that
 * sentence answers the question already ("Unknown keys are reported as `ORB-1701
 * ConfigKeyUnknown`"), and the question's next page is worth more than its name's.
 */
function learnedQuery(analysis: QuestionAnalysis, conversation: Conversation, view: EvidenceView, ranked: Bridge[]): string | undefined {
  const previous = new Set(conversation.searches.map((search) => normalizeQuery(search.query)));
  const queried = new Set(conversation.searches.flatMap((search) => words(search.query).map(stem)));
  for (const bridge of learnedBridges(analysis, conversation, view, ranked).slice(0, 3)) {
    const term = bridge.term;
    const termWords = new Set(words(term).map(stem));
    if (termWords.size === 0 || [...termWords].every((word) => queried.has(word))) continue;
    const keep = (word: string) => !termWords.has(stem(word)) && (RELATION_WORDS.has(word) || (!STOPWORDS.has(word) && view.weight(stem(word)) >= 1));
    const open = [...new Set(openParts(analysis, view, bridge.answers).flatMap((part) => words(part.text).filter(keep)))];
    if (open.length === 0) continue;
    const query = [term, ...open.slice(0, MAX_QUESTION_TERMS)].join(' ');
    if (!previous.has(normalizeQuery(query))) return query;
  }
  return undefined;
}

/** Words that name the relation a part asks and that documentation writes when stating it, though they are stopwords elsewhere. */
const RELATION_WORDS = new Set(['instead', 'rather']);

/** A hop query: the best bridge of the kinds hopped with, with its companions and the question's open terms. */
function bridgeQuery(analysis: QuestionAnalysis, conversation: Conversation, view: EvidenceView, hopKinds: ReadonlyArray<Bridge['kind']>, ranked: Bridge[]): string | undefined {
  const previous = new Set(conversation.searches.map((search) => normalizeQuery(search.query)));
  // The best thread decides: when it is of a kind not hopped with, a weaker bridge is no better
  // (measured: falling back to the best bridge of a hopped kind lost gold pages on every dev set).
  const bridges = ranked[0] !== undefined && hopKinds.includes(ranked[0].kind) ? ranked : [];
  const foundAnchors = new Set(
    analysis.anchors.filter((anchor) => isFound(anchor, view)).flatMap((anchor) => words(anchor).map(stem)),
  );
  for (const bridge of bridges.slice(0, 6)) {
    const bridgeWords = new Set(words(bridge.term));
    const companions = ranked
      .filter((other) => other !== bridge && other.sentence === bridge.sentence && other.score >= bridge.score * 0.3)
      .filter((other) => !words(other.term).every((word) => bridgeWords.has(word)) && !words(bridge.term).every((word) => words(other.term).includes(word)))
      .slice(0, 2)
      .map((other) => other.term);
    const terms = bridge.link ? [bridge.term] : [bridge.term, ...companions];
    const inTerms = new Set(terms.flatMap((term) => words(term).map(stem)));
    // The bridge joins the question rather than replacing it: the query still ranks the question's
    // neighbourhood (whose seen passages the session skips), so a weak bridge costs little.
    const open = analysis.terms.filter((term) => !inTerms.has(term) && !foundAnchors.has(term) && view.weight(term) >= 1).slice(0, bridge.link ? 0 : MAX_QUESTION_TERMS);
    const query = [...terms, ...originalWords(analysis.question, open), ...(bridge.link ? [] : queryExpansions(analysis, terms))].join(' ');
    if (!previous.has(normalizeQuery(query))) return query;
  }
  return undefined;
}

/**
 * New passages of the last search worth reading in full: snippets only, among those whose snippet
 * or heading path shares a term with the question. The search's best hit always comes first, even
 * when its snippet shares none (the index ranked the whole section; a snippet shows only a window
 * of it), then the best question overlap.
 */
function chunksWorthReading(analysis: QuestionAnalysis, view: EvidenceView, limit: number, lastSearch: number): string[] {
  if (analysis.terms.length === 0) return [];
  const candidates = view.passages
    .filter((passage) => !passage.full && passage.searchIndex === lastSearch)
    .map((passage) => {
      // The heading path counts: the index ranked the section by it too.
      const terms = termSet(`${passage.headingPath ?? ''} ${passage.heading} ${passage.texts.join(' ')}`);
      return { passage, score: view.heldWeight(terms) / (1 + 0.1 * passage.rank) };
    });
  const topRank = Math.min(...candidates.map((candidate) => candidate.passage.rank));
  return candidates
    .filter((candidate) => candidate.score > 0 || candidate.passage.rank === topRank)
    .sort(
      (a, b) =>
        Number(b.passage.rank === topRank) - Number(a.passage.rank === topRank) ||
        b.score - a.score ||
        a.passage.chunkId.localeCompare(b.passage.chunkId),
    )
    .slice(0, limit)
    .map((candidate) => candidate.passage.chunkId);
}

/**
 * Unread pages of sections the last search surfaced, at the offsets the session says match it
 * (at most one per section, per round, and {@link MAX_PAGES_A_SECTION} in all); offsets inside
 * pages already read are done.
 */
function matchingPagesToRead(view: EvidenceView, lastSearch: number): Array<{ chunkId: string; offset: number }> {
  const result: Array<{ chunkId: string; offset: number }> = [];
  for (const passage of view.passages) {
    if (passage.full || passage.searchIndex !== lastSearch || passage.pages.size >= MAX_PAGES_A_SECTION) continue;
    const read = [...passage.pages.entries()].map(([start, text]) => [start, start + text.length] as const);
    const offset = passage.matchOffsets.find((at) => !read.some(([start, end]) => at >= start && at < end));
    if (offset !== undefined) result.push({ chunkId: passage.chunkId, offset });
  }
  return result.slice(0, MAX_PAGE_READS);
}

/**
 * The sections the best links of the evidence name (the section a resolved link's anchor names,
 * else the first section of every candidate page) in one turn (the index says which exists; "not
 * found" costs no passage, and one turn keeps the run within its steps), once per run (a read of
 * a passage no search showed is a link already followed) and only in a run's first turn.
 */
function linkReads(view: EvidenceView, conversation: Conversation, options: LinkFollowOptions): string[] {
  // A follow-up turn does not know every passage the earlier turns were shown: a linked page
  // read again would show one of them twice.
  if (options.limit <= 0 || conversation.earlierQuestions.length > 0) return [];
  const searched = new Set(conversation.searches.flatMap((search) => search.chunkIds));
  if (conversation.readChunkIds.some((chunkId) => !searched.has(chunkId))) return [];
  const tried = new Set(conversation.readChunkIds);
  return [...new Set(linksToFollow(view, conversation, options).flatMap((link) => link.chunkIds))].filter((chunkId) => !tried.has(chunkId));
}

/** Pages of long sections read per round. */
const MAX_PAGE_READS = 3;

/**
 * Pages of one section read in all: a long list that matches the question all along (a contents
 * page listing every name of a module, 35,000 characters) would otherwise be read a page a turn,
 * one matching line after another, until the run's steps ran out.
 */
const MAX_PAGES_A_SECTION = 3;


function normalizeQuery(query: string): string {
  return contentTerms(query).sort().join(' ');
}
