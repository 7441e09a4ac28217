import type { ModelAnswer } from '../../agent/trust/answer.ts';
import { hasSubstance } from '../../agent/trust/citations.ts';
import { createSentenceScorer, type SentenceScore } from './answer-scoring.ts';
import type { Conversation, Passage } from './conversation.ts';
import { EvidenceView, type Sentence } from './evidence-view.ts';
import { focusShare, questionFocus } from './focus.ts';
import { versionInPlay } from './planner.ts';
import type { QuestionAnalysis } from '../../text/question.ts';
import { relationsOf, statesRelation, type Relation } from './relations.ts';
import { placeholderNotes, plainText, withoutPlaceholderNotes } from './plain-text.ts';
import { contentTerms, stem, termSet, words } from '../../text/text.ts';

export { answerType, mentionsOtherVersion } from './answer-scoring.ts';

/** Thresholds of the abstention rule, calibrated on three dev sets together (docs/calibration.md). */
export interface AbstainOptions {
  /** Weighted share of the question's terms that must occur somewhere in the evidence. */
  minCoverage: number;
  /** Share of the question's names and identifiers ("Apache Kafka", "ORB-1202") that may be absent from the evidence. */
  maxMissingAnchorShare: number;
  /**
   * Weighted share of the question's terms a placeholder note of the evidence ("TODO: which
   * VACUUM options should we recommend?") may hold: a note that asks what the question asks
   * says the docs do not answer it.
   */
  maxPlaceholderMatch: number;
  /**
   * Share of the phrase a part asks about ("Is there a maximum size for ...", "How do I set a
   * per-job execution timeout ...", focus.ts) that one sentence of the evidence must name: under
   * it, the docs speak of the words but never of the thing asked. 0 turns the condition off.
   */
  minFocusShare: number;
}

export const DEFAULT_ABSTAIN_OPTIONS: AbstainOptions = { minCoverage: 0.4, maxMissingAnchorShare: 0.4, maxPlaceholderMatch: 0.4, minFocusShare: 0.7 };

/** Citations an extractive answer carries at most. */
const MAX_QUOTES = 4;
/** Sentences one citation quotes at most (of one passage, in order, elided with "..."). */
const MAX_SENTENCES_PER_QUOTE = 7;
/** A sentence joins the answer to carry more facts only when it scores this share of the best one. */
const FILL_SHARE = 0.35;
/** Another sentence of the passage answering a part joins when it scores this share of the part's best sentence. */
const SUPPORT_SHARE = 0.3;
/** Question terms a sentence of another page must hold itself to join the answer. */
const MIN_FILL_TERMS = 2;

/**
 * Writes the final answer from the evidence alone: for each part of the question, the sentence
 * that best answers it (its topic words, the identifiers named, the relation asked: default,
 * instead, cause, how), followed by the next sentence of its passage when that one states a
 * relation asked or continues it, and by the other sentences of that passage that score at least
 * 30% of it (the condition, caveat or value stated around the answer); then the best sentence of
 * each hop and of each page not yet quoted (a multi-hop answer draws on each). At most 4
 * citations of up to 7 sentences of one passage each. Quotes are verbatim with their doc id, so
 * every citation verifies; the answer text is the quotes rendered as plain text. Abstains when
 * the evidence does not cover the question.
 *
 * @example
 * extractAnswer(analyzeQuestion(question), readConversation(prompt));
 */
export function extractAnswer(
  analysis: QuestionAnalysis,
  conversation: Conversation,
  options: AbstainOptions = DEFAULT_ABSTAIN_OPTIONS,
): ModelAnswer {
  const version = versionInPlay(analysis, conversation);
  const view = new EvidenceView(analysis, conversation, version);
  const abstain: ModelAnswer = { text: '', citations: [], abstained: true };
  if (view.sentences.length === 0 || !covers(analysis, view, options)) return abstain;
  const selected = selectSentences(analysis, view, createSentenceScorer(view, conversation, version), conversation);
  if (selected.length === 0) return abstain;
  const quotes = groupByPassage(selected).map(withoutThinFragments);
  return {
    text: quotes.flat().map((sentence) => plainText(sentence.text)).join(' '),
    citations: quotes.map((group) => ({ doc_id: group[0]!.passage.docId, quote: group.map((sentence) => sentence.text).join(' ... ') })),
    abstained: false,
  };
}

/**
 * A quote of several sentences is elided between them, and the citation check refuses an elided
 * quote with a fragment too thin to carry a claim (a lone `**Experimental**` line): such sentences
 * leave a quote of several, so the rest of it still verifies.
 */
function withoutThinFragments(group: Sentence[]): Sentence[] {
  if (group.length === 1) return group;
  const kept = group.filter((sentence) => hasSubstance(sentence.text));
  return kept.length === 0 ? group.slice(0, 1) : kept;
}

/** Sentences grouped by passage, in order of first selection; within a group in passage order. */
function groupByPassage(selected: Sentence[]): Sentence[][] {
  const groups = new Map<Passage, Sentence[]>();
  for (const sentence of selected) groups.set(sentence.passage, [...(groups.get(sentence.passage) ?? []), sentence]);
  return [...groups.values()].map((group) => group.sort((a, b) => a.order - b.order));
}

function selectSentences(analysis: QuestionAnalysis, view: EvidenceView, score: SentenceScore, conversation: Conversation): Sentence[] {
  const selected: Sentence[] = [];
  // A sentence joins when its passage is already quoted (room left in that quote) or a quote is left.
  const fits = (sentence: Sentence) => {
    const samePassage = selected.filter((other) => other.passage === sentence.passage).length;
    if (samePassage > 0) return samePassage < MAX_SENTENCES_PER_QUOTE;
    return new Set(selected.map((other) => other.passage)).size < MAX_QUOTES;
  };
  const add = (sentence: Sentence | undefined) => {
    if (sentence && !selected.includes(sentence) && fits(sentence)) selected.push(sentence);
  };
  // The passage a sentence is quoted from usually states the rest of the answer around it (the
  // condition, the caveat, the value): its other sentences that hold a term of the question
  // themselves, or stand under a heading naming what the question names ("Default value: 5_000"
  // under "gracefulShutdownAbortTimeout"), and score SUPPORT_SHARE of it join too.
  const addWithSupport = (found: { sentence: Sentence; score: number }, terms: string[], relations: Relation[]) => {
    add(found.sentence);
    const supports = (sentence: Sentence) =>
      sentence.passage === found.sentence.passage &&
      fits(sentence) &&
      (terms.some((term) => sentence.terms.has(term)) || analysis.keyTerms.some((term) => sentence.context.has(term)));
    for (;;) {
      const more = bestSentence(view, terms, relations, score, selected, supports);
      if (!more || more.score < SUPPORT_SHARE * found.score) return;
      add(more.sentence);
    }
  };
  const allRelations = [...new Set(analysis.parts.flatMap((part) => relationsOf(part.text)))];
  let bestScore = 0;
  for (const part of analysis.parts) {
    const relations = relationsOf(part.text);
    // A sentence already quoted may answer this part too; then the part needs nothing more.
    const found = bestSentence(view, part.terms, relations, score, []);
    if (!found || selected.includes(found.sentence)) continue;
    bestScore = Math.max(bestScore, found.score);
    add(found.sentence);
    add(continuation(view, found.sentence, allRelations));
    addWithSupport(found, part.terms, relations);
  }
  // The page the question itself ranked first is most often the home of the fact: quote it too.
  const top = conversation.searches[0]?.chunkIds[0];
  if (top && !selected.some((sentence) => sentence.passage.chunkId === top)) {
    const found = bestSentence(view, analysis.terms, allRelations, score, selected, (sentence) => sentence.passage.chunkId === top);
    if (found && found.score >= FILL_SHARE * bestScore) addWithSupport(found, analysis.terms, allRelations);
  }
  // Each hop searched for a term the evidence taught: quote the best sentence it found, scored with
  // the question's terms and that term (the question alone does not name the later page's topic).
  conversation.searches.slice(1).forEach((search, index) => {
    const learned = contentTerms(search.query).filter((term) => !analysis.terms.includes(term));
    if (learned.length === 0 || selected.length >= MAX_QUOTES * MAX_SENTENCES_PER_QUOTE) return;
    const hopTerms = [...analysis.terms, ...learned];
    const found = bestSentence(view, hopTerms, allRelations, score, selected, (sentence) => sentence.passage.searchIndex === index + 1 && fits(sentence));
    if (found && found.score >= FILL_SHARE * bestScore) addWithSupport(found, hopTerms, allRelations);
  });
  // A multi-hop answer draws on several pages: the best sentence of each page not yet quoted, among
  // sentences that themselves hold two of the question's terms (a page's nearest match is not an answer).
  const holdsQuestion = (sentence: Sentence) => analysis.terms.filter((term) => sentence.terms.has(term)).length >= MIN_FILL_TERMS;
  for (;;) {
    const cited = new Set(selected.map((sentence) => sentence.passage.docId));
    const found = bestSentence(view, analysis.terms, allRelations, score, selected, (sentence) => !cited.has(sentence.passage.docId) && fits(sentence) && holdsQuestion(sentence));
    if (!found || found.score < FILL_SHARE * bestScore) break;
    addWithSupport(found, analysis.terms, allRelations);
  }
  return selected;
}

/** Sentences that carry on the one before: "Instead, ...", "This means ...", "It defaults to ...". */
const CONTINUES = /^(?:it|this|that|these|those|they|instead|otherwise|so|then|however|but|in that case|as a result|therefore|thus|note)\b/i;

/**
 * The sentence after `sentence` in its passage, when it states a relation the part asks for and
 * `sentence` does not, or when it opens by referring back to it.
 */
function continuation(view: EvidenceView, sentence: Sentence, relations: Relation[]): Sentence | undefined {
  const next = view.sentences.find((other) => other.passage === sentence.passage && other.order === sentence.order + 1);
  if (!next || next.code) return undefined;
  const adds = relations.some((relation) => statesRelation(relation, next.text) && !statesRelation(relation, sentence.text));
  return adds || CONTINUES.test(next.text) ? next : undefined;
}

/** How well the evidence covers a question: the inputs of the abstention rule. */
export interface Coverage {
  /** Share of the question's names and identifiers that occur nowhere in the evidence (as a phrase). */
  missingAnchorShare: number;
  /** Weighted share of the question's terms found anywhere in the evidence. */
  total: number;
  /** Weighted share of the question's terms found in the single best passage. */
  bestPassage: number;
  /** Weighted share of the question's terms held by the placeholder note (TODO) that holds most of them; 0 without notes. */
  placeholderMatch: number;
  /** Over the parts that ask whether a thing exists or how to set it up, the least share of that thing's phrase one sentence names; 1 without such parts. */
  focusShare: number;
}

/** Measures how well the evidence covers the question. */
export function coverage(analysis: QuestionAnalysis, view: EvidenceView): Coverage {
  const seen = view.allTerms();
  // A name mentioned only in a placeholder note ("TODO: recommend VACUUM options") is not covered.
  // Headings name what a section is about: an anchor in a heading is covered.
  const evidenceText = ` ${view.passages
    .flatMap((passage) => [passage.headingPath ?? passage.title ?? '', passage.heading, ...passage.texts])
    .map((text) => words(withoutPlaceholderNotes(text)).join(' '))
    .join(' \n ')} `;
  const missing = analysis.anchors.filter((anchor) => !evidenceText.includes(` ${words(anchor).join(' ')} `)).length;
  const bestPassage = Math.max(
    0,
    ...view.passages.map((passage) => view.overlap(analysis.terms, new Set([...passage.texts, passage.heading].flatMap((text) => words(text).map(stem))))),
  );
  const notes = view.passages.flatMap((passage) => passage.texts.flatMap(placeholderNotes));
  const placeholderMatch = Math.max(0, ...notes.map((note) => view.overlap(analysis.terms, termSet(note))));
  return {
    missingAnchorShare: analysis.anchors.length === 0 ? 0 : missing / analysis.anchors.length,
    total: view.overlap(analysis.terms, seen),
    bestPassage,
    placeholderMatch,
    focusShare: Math.min(1, ...analysis.parts.map((part) => questionFocus(part.text)).filter((focus) => focus !== undefined).map((focus) => focusShare(view, focus))),
  };
}

/** The abstention rule: enough of the question's terms, and all of its key terms, occur in the evidence. */
export function covers(analysis: QuestionAnalysis, view: EvidenceView, options: AbstainOptions): boolean {
  const measured = coverage(analysis, view);
  return (
    measured.missingAnchorShare <= options.maxMissingAnchorShare &&
    measured.total >= options.minCoverage &&
    measured.placeholderMatch <= options.maxPlaceholderMatch &&
    measured.focusShare >= options.minFocusShare
  );
}

function bestSentence(
  view: EvidenceView,
  terms: string[],
  relations: Relation[],
  score: SentenceScore,
  exclude: Sentence[],
  where: (sentence: Sentence) => boolean = () => true,
): { sentence: Sentence; score: number } | undefined {
  let best: { sentence: Sentence; score: number } | undefined;
  const unique = [...new Set(terms)];
  for (const sentence of view.sentences) {
    if (exclude.includes(sentence) || !where(sentence)) continue;
    const value = score(sentence, unique, relations);
    if (value > 0 && (!best || value > best.score)) best = { sentence, score: value };
  }
  return best;
}
