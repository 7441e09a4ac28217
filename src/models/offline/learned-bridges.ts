/**
 * What a run has learned to ask for: the identifier (an error code, a setting, an option) that the
 * sentence answering part of the question names, in a passage the run read. The planner searches it
 * with the question's open parts before the question's next page ("ORB-1202 step return instead"
 * after reading "... fails with `ORB-1202 PayloadTooLarge` ..."). Pure functions over the evidence.
 */
import { answerType, createSentenceScorer } from './answer-scoring.ts';
import type { Bridge } from './bridges.ts';
import type { Conversation } from './conversation.ts';
import type { EvidenceView, Sentence } from './evidence-view.ts';
import type { QuestionAnalysis, QuestionPart } from '../../text/question.ts';
import { holdsTerm } from './related-terms.ts';
import { relationsOf, statesRelation } from './relations.ts';
import { identifiers } from '../../text/text.ts';

/** Share of a part's weighted terms a sentence (with the headings above it) holds when it answers that part. */
const ANSWERED_PART_SHARE = 0.6;
/** Weighted terms a part needs for a sentence to answer it: one word ("which error is it") is met by any sentence that says it. */
const MIN_PART_WEIGHT = 2;
/**
 * What a learned bridge looks like: one name of a thing (`ORB-1202`, `max_payload_kb`,
 * `orbit.results.put_blob()`, `ORBIT_LOG_LEVEL`), not a value or a phrase in code ticks (`"info"`,
 * `[worker]`, `x.y`, `ORB-1202 PayloadTooLarge`, whose first name is a bridge of its own).
 */
const NAME_SHAPE = /^[A-Za-z][\w.-]*\w(?:\(\))?$/;
/** Characters a learned bridge has at least. */
const MIN_NAME_LENGTH = 4;
/** Terms of a part a sentence that answers it holds itself, not only in its headings. */
const MIN_OWN_TERMS = 2;

/** A bridge the run has learned, with the sentence it was learned from. */
export interface LearnedBridge extends Bridge {
  /** The sentence that answers a part of the question and names the bridge. */
  answers: Sentence;
}

/**
 * Bridges the run has *learned*, which the next search asks for before the question's next page:
 * the identifiers (an error code, a setting, an option) written in the sentence that best answers
 * a part of the question, when that sentence is prose of a passage the run read and does answer
 * the part ({@link answersPart}), and no search has asked for them yet (they are among the
 * `rankBridges` candidates, `ranked`); the one most passages read name first. The question's own
 * words found the sentence; the identifier is the docs' own name for what it describes, and the
 * pages about that name (its reference entry, its fix) share few words with the question.
 *
 * @example
 * // read: "A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work."
 * learnedBridges(analysis, conversation, view, rankBridges(analysis, conversation, view))[0]?.term;
 * // 'ORB-1202'
 */
export function learnedBridges(analysis: QuestionAnalysis, conversation: Conversation, view: EvidenceView, ranked: Bridge[]): LearnedBridge[] {
  const score = createSentenceScorer(view, conversation, undefined);
  const answering: Sentence[] = [];
  for (const part of analysis.parts) {
    const relations = relationsOf(part.text);
    let best: { sentence: Sentence; score: number } | undefined;
    for (const sentence of view.sentences) {
      if (sentence.code || sentence.heading || sentence.passage.pages.size === 0) continue;
      const value = score(sentence, part.terms, relations);
      if (value > 0 && (best === undefined || value > best.score)) best = { sentence, score: value };
    }
    if (best !== undefined && answersPart(view, best.sentence, part) && !answering.includes(best.sentence)) answering.push(best.sentence);
  }
  const isName = (term: string) => NAME_SHAPE.test(term) && term.length >= MIN_NAME_LENGTH;
  const learned = answering.flatMap((answers) =>
    identifiers(answers.text).flatMap((identifier) => {
      const bridge = ranked.find((candidate) => candidate.kind === 'identifier' && candidate.term === identifier && isName(candidate.term));
      return bridge === undefined ? [] : [{ ...bridge, answers }];
    }),
  );
  // The name most passages read speak of is the thread of the research (`ORB-1202` in five of
  // them, `run_flow_inline()` in one); then the order of the parts, and the sentence's own order.
  const texts = view.passages.filter((passage) => passage.pages.size > 0).map((passage) => passage.texts.join('\n').toLowerCase());
  const mentions = (bridge: Bridge) => texts.filter((text) => text.includes(bridge.term.toLowerCase())).length;
  return learned
    .map((bridge, order) => ({ bridge, order, mentions: mentions(bridge) }))
    .sort((a, b) => b.mentions - a.mentions || a.order - b.order)
    .map(({ bridge }) => bridge);
}

/**
 * Whether a sentence answers a part of the question: it and the headings above it hold
 * {@link ANSWERED_PART_SHARE} of the part's weighted terms (its names and identifiers weigh 0.5, as
 * in bridge scoring: they pick the page, the other words the sentence), at least
 * {@link MIN_OWN_TERMS} of them in the sentence itself (a term is also held by a word docs use for
 * it: "attempts" for "tried"), and the sentence states every relation the part asks ("instead",
 * "default"). A part of one plain term ("which error is it") is answered by no sentence: any that
 * says "error" would do.
 *
 * @example
 * answersPart(view, sentence, analyzeQuestion('What should the step return instead?').parts[0]!); // false for "A step that returns a large value fails ..."
 */
export function answersPart(view: EvidenceView, sentence: Sentence, part: QuestionPart): boolean {
  const terms = [...new Set(part.terms)];
  const weight = (term: string) => termWeight(view, term);
  const holds = holdsTerm;
  const total = terms.reduce((sum, term) => sum + weight(term), 0);
  const held = terms.filter((term) => holds(sentence.terms, term) || holds(sentence.context, term));
  const share = held.reduce((sum, term) => sum + weight(term), 0) / total;
  const own = terms.filter((term) => holds(sentence.terms, term)).length;
  return total >= MIN_PART_WEIGHT && share >= ANSWERED_PART_SHARE && own >= MIN_OWN_TERMS && relationsOf(part.text).every((relation) => statesRelation(relation, sentence.text));
}

/**
 * The parts of the question a learned bridge's sentence leaves open: those it does not answer,
 * except a part that only asks for a name ("which error is it"): the identifier is that name.
 */
export function openParts(analysis: QuestionAnalysis, view: EvidenceView, sentence: Sentence): QuestionPart[] {
  return analysis.parts.filter((part) => !answersPart(view, sentence, part) && !(answerType(part.text) === 'name' && partWeight(view, part) < MIN_PART_WEIGHT));
}

/** A part's terms weighted as {@link answersPart} weighs them. */
function partWeight(view: EvidenceView, part: QuestionPart): number {
  return [...new Set(part.terms)].reduce((sum, term) => sum + termWeight(view, term), 0);
}

/** The question's names count little: every sentence of their own page holds them (in its headings at least). */
function termWeight(view: EvidenceView, term: string): number {
  return view.analysis.keyTerms.includes(term) ? 0.5 : view.weight(term) || 1;
}

