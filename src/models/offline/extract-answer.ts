import { NO_DIRECT_ANSWER, type ModelAnswer } from '../../agent/trust/answer.ts';
import { createRelevance, createSentenceScorer, type SentenceScore } from './answer-scoring.ts';
import { DEFAULT_DIRECTNESS_RULE, directnessFeatures, statesAnswer, type DirectnessFeatures, type DirectnessRule } from './directness.ts';
import type { Conversation, Passage } from './conversation.ts';
import { EvidenceView, type Sentence } from './evidence-view.ts';
import { askersOwn } from '../../text/askers-own.ts';
import { focusShare, questionFocus } from './focus.ts';
import { versionInPlay } from './planner.ts';
import type { QuestionAnalysis } from '../../text/question.ts';
import { askedRelations, isNamedRelation, statesRelation } from './relations.ts';
import { codeSpan, placeholderNotes, plainText, withoutPlaceholderNotes } from './plain-text.ts';
import { bestSentence, chainNames, exampleEntry, possessiveSlots, quotableSentence, selectSentences, withoutRepeats } from './answer-sentences.ts';
import { stem, termSet, withinWordLimit, wordCount, words } from '../../text/text.ts';

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
  /** When the chosen sentences state the answer (directness.ts); otherwise the closest passages. */
  directness: DirectnessRule;
}

export const DEFAULT_ABSTAIN_OPTIONS: AbstainOptions = {
  minCoverage: 0.4,
  maxMissingAnchorShare: 0.4,
  maxPlaceholderMatch: 0.4,
  minFocusShare: 0.7,
  directness: DEFAULT_DIRECTNESS_RULE,
};

/** Words an answer's text holds at most (a longer first sentence is cut, its quote kept whole). */
const MAX_WORDS = 100;
/** Passages shown as the closest when no sentence states the answer. */
const MAX_CLOSEST = 3;
/**
 * A passage's second-best sentence for the question is shown beside its best when it scores this
 * share of the best's score for the question. Measured at 0, 0.1, 0.25 and 0.5 on the four dev
 * sets and cmrc2018-dev (every 10th): 0.1 shows the most facts, on no set fewer than the others
 * (docs/calibration.md, Session 18).
 */
const CLOSEST_SECOND_SHARE = 0.1;
/**
 * The power of a passage's relevance (its score against the best of its search) that weighs its
 * sentences' scores among the closest passages. With no sentence that answers, the ranking's
 * judgement of a whole passage says more than a sentence's share of the question's words.
 * Chosen among 0, 1, 2, 4 and 8 on the four dev sets together: 4 shows the most facts, and no set
 * fewer than with 0 (docs/calibration.md "Closest passages").
 */
const CLOSEST_RANK_POWER = 4;
/**
 * The relevance among the closest passages of a passage no search ranked (a link followed, a
 * neighbour read): read on purpose, but not judged by a ranking against the question. Measured
 * at 1, 0.84, 0.8, 0.75, 0.67, 0.56 (factors 1, 0.5, 0.4, 0.3, 0.2, 0.1) on the four dev sets: 0.75 shows
 * the most facts (docs/calibration.md, Session 15); 1 (as ranked first) let a neighbour's
 * sentence push out the question's own passages.
 */
const UNRANKED_RELEVANCE = 0.75;

/**
 * Writes the final answer from the evidence alone, precision first. For each part of the
 * question, the sentence that best answers it (its topic words, the identifiers named, the
 * relation asked: default, instead, cause, how), the next sentence of its passage when that one
 * states a relation asked or carries on ("Instead, ..."), and the best sentence a hop found; at
 * most 3 sentences, the most direct first, each followed by its citation marker `[n]` and cited
 * verbatim (so every citation verifies). It answers only when those sentences state the answer
 * ({@link directness}); otherwise it abstains with the closest passages ("no direct answer"). A
 * question whose names or focus the evidence never mentions gets the plain abstention.
 *
 * @example
 * extractAnswer(analyzeQuestion(question), readConversation(prompt));
 */
export function extractAnswer(
  analysis: QuestionAnalysis,
  conversation: Conversation,
  options: AbstainOptions = DEFAULT_ABSTAIN_OPTIONS,
): ModelAnswer {
  const draft = draftAnswer(analysis, conversation, options);
  const abstain: ModelAnswer = { text: '', citations: [], abstained: true };
  if (draft === undefined) return abstain;
  if (draft.answer !== undefined && statesAnswer(draft.features, options.directness)) return draft.answer;
  return draft.closest.length === 0 ? abstain : { ...abstain, closest: draft.closest, abstain_reason: NO_DIRECT_ANSWER };
}

/** What {@link extractAnswer} decides from: the answer it would give, how directly it answers, and the closest passages. */
export interface AnswerDraft {
  /** The answer from the chosen sentences; undefined when no sentence was chosen. */
  answer?: ModelAnswer;
  features: DirectnessFeatures;
  closest: NonNullable<ModelAnswer['closest']>;
}

/**
 * The answer the evidence would give and what decides whether to give it; undefined when the
 * evidence never mentions what the question asks (its names, most of its terms, its focus), which
 * gets the plain abstention. Exported for the fitting of the directness weights
 * (scripts/fit-offline-answers.ts).
 */
export function draftAnswer(analysis: QuestionAnalysis, conversation: Conversation, options: AbstainOptions = DEFAULT_ABSTAIN_OPTIONS): AnswerDraft | undefined {
  const version = versionInPlay(analysis, conversation);
  const view = new EvidenceView(analysis, conversation, version);
  if (view.sentences.length === 0 || !covers(analysis, view, options)) return undefined;
  const score = createSentenceScorer(view, conversation, version);
  // Directness is judged on the sentences the answer keeps within its words, not on those it drops.
  const selected = withinAnswerWords(selectSentences(analysis, view, score, conversation));
  return {
    // A sentence that says the ones before it again is left out of the text, not of the judgement:
    // its headings may hold a word of the question the others' do not.
    ...(selected.length > 0 ? { answer: composeAnswer(withoutRepeats(selected)) } : {}),
    features: directnessFeatures(view, selected, createRelevance(conversation), chainedSlots(analysis, conversation, selected)),
    closest: closestPassages(analysis, view, rankWeighted(score, createRelevance(conversation))),
  };
}

/**
 * The thing a possessive name leads to ("country" of "Damerjog's country"), when the answer's
 * sentences chain through it: from two pages, the first and a later one both writing a name a hop
 * asked for ("Damerjog ... eastern Djibouti" and "... Djibouti's first president"). That name is
 * the country: the answer need not write the word.
 */
function chainedSlots(analysis: QuestionAnalysis, conversation: Conversation, sentences: Sentence[]): string[] {
  const [first, ...rest] = sentences;
  if (first === undefined) return [];
  const chained = chainNames(analysis, conversation, first).some((term) => rest.some((sentence) => sentence.passage.docId !== first.passage.docId && sentence.terms.has(term)));
  return chained ? possessiveSlots(analysis.question) : [];
}

/** The sentences that fit in {@link MAX_WORDS} together, in order (the first always: a longer one is cut in the text). */
function withinAnswerWords(selected: Sentence[]): Sentence[] {
  const kept: Sentence[] = [];
  let count = 0;
  for (const sentence of selected) {
    const length = wordCount(rendered(sentence));
    if (kept.length > 0 && count + length > MAX_WORDS) continue;
    kept.push(sentence);
    count += length;
  }
  return kept;
}

/** The answer text (each sentence as plain text with its marker, the first cut at {@link MAX_WORDS}) and one citation per sentence. */
function composeAnswer(kept: Sentence[]): ModelAnswer {
  const text = kept.map((sentence, index) => `${withinWordLimit(rendered(sentence), MAX_WORDS)} [${index + 1}]`).join(' ');
  return { text, citations: kept.map((sentence) => ({ doc_id: sentence.passage.docId, quote: sentence.example?.quote ?? sentence.text })), abstained: false };
}

/**
 * A sentence as a reader sees it: plain text, a table row with its column names; a sentence that
 * introduces a short example ("... with the directory path:") followed by its lines as code spans
 * (its quote holds the code block); one that introduces a longer example ends as a statement,
 * since the answer does not show the example (its quote keeps the colon).
 */
function rendered(sentence: Sentence): string {
  const text = plainText(sentence.text, sentence.tableHeader === undefined ? {} : { tableHeader: sentence.tableHeader });
  if (sentence.example) return `${text} ${sentence.example.lines.map(codeSpan).join(' ')}`;
  return sentence.introducesCode ? text.replace(/\s*:\s*$/, '.') : text;
}

/**
 * `score` weighed by the relevance of the sentence's passage to the power
 * {@link CLOSEST_RANK_POWER}; a passage no search ranked (a link followed, a neighbour read) was
 * read on purpose and counts as ranked at {@link UNRANKED_RELEVANCE} of its search's best.
 */
function rankWeighted(score: SentenceScore, relevance: (sentence: Sentence) => number): SentenceScore {
  return (sentence, terms, relations) => score(sentence, terms, relations) * (sentence.passage.score > 0 ? relevance(sentence) : UNRANKED_RELEVANCE) ** CLOSEST_RANK_POWER;
}

/**
 * The passages that come closest when no sentence states the answer, up to 3: the passage whose
 * best sentence scores highest for the whole question first, then greedily the passage whose best
 * sentence best answers what the shown sentences do not hold yet (terms, relations asked); each
 * with that sentence and the second best for the whole question of the same section (the same
 * headings: a subsection held in the chunk is a section of its own) when it scores
 * {@link CLOSEST_SECOND_SHARE} of the best's (first one that words a relation asked which the
 * best does not: a default, what to use instead), else the sentence after the best in that
 * section; a sentence that introduces a short example is shown with it (`shortExample`: "... every Monday:"
 * and the crontab line), quoted as the docs write them; one that introduces a longer example, with
 * nothing after it to read on to, is followed by the example's entry that holds most of the
 * question (`exampleEntry`: an option of a `--help` listing).
 * The second best for the whole question, not for what the best left out: a question's answer
 * most often stands in the sentences that match it best, and the words the best left out are often
 * the asker's own, held by a sentence about something else.
 */
function closestPassages(analysis: QuestionAnalysis, view: EvidenceView, score: SentenceScore): NonNullable<ModelAnswer['closest']> {
  const relations = askedRelations(analysis.parts);
  const terms = [...new Set(analysis.terms)];
  const shown: Sentence[] = [];
  const missing = () => ({
    terms: terms.filter((term) => !shown.some((sentence) => sentence.terms.has(term))),
    relations: relations.filter((relation) => !shown.some((sentence) => statesRelation(relation, sentence.text))),
  });
  const quotable = (sentence: Sentence) => !sentence.code && quotableSentence(sentence, relations);
  const passages: NonNullable<ModelAnswer['closest']> = [];
  const used = new Set<Passage>();
  while (passages.length < MAX_CLOSEST) {
    const open = missing();
    const want = open.terms.length > 0 ? open.terms : terms;
    const best = bestSentence(view, want, open.relations, score, [], (sentence) => quotable(sentence) && !used.has(sentence.passage));
    if (best === undefined) break;
    used.add(best.sentence.passage);
    shown.push(best.sentence);
    // From the best's own section: a passage is shown under one heading (a subsection held in
    // its chunk is a section of its own: "Defaults to 4 hours." of two options reads as one).
    const beside = (sentence: Sentence) => quotable(sentence) && sentence.passage === best.sentence.passage && sentence.contextText === best.sentence.contextText;
    // A sentence that words what the question asks and the best does not (its default, what to
    // use instead) comes first, when it matches the question as well as any second sentence must.
    const floor = CLOSEST_SECOND_SHARE * score(best.sentence, terms, relations);
    const unworded = relations.filter((relation) => isNamedRelation(relation) && !statesRelation(relation, best.sentence.text));
    const wording = unworded.length === 0 ? undefined : bestSentence(view, terms, relations, score, [best.sentence], (sentence) => beside(sentence) && unworded.some((relation) => statesRelation(relation, sentence.text)));
    const second = wording !== undefined && wording.score >= floor ? wording : bestSentence(view, terms, relations, score, [best.sentence], beside);
    const held = second && second.score >= floor ? second.sentence : undefined;
    if (held) shown.push(held);
    // Without a second sentence that matches, the one after the best, as a reader reads
    // on (not counted as showing the terms it holds: the next passages are still sought for them).
    const pick = held ?? followingSentence(view, best.sentence, beside);
    const sentences = pick ? [best.sentence, pick] : [best.sentence];
    // Nothing to read on to after a sentence that introduces a longer example: its best entry.
    const entry = pick === undefined ? exampleEntry(view, best.sentence) : undefined;
    const texts = sentences.sort((a, b) => a.order - b.order).map((sentence) => sentence.example?.quote ?? sentence.text);
    passages.push({ doc_id: best.sentence.passage.docId, sentences: entry === undefined ? texts : [...texts, entry] });
  }
  return passages;
}

/** The sentence after `sentence` in its passage, when `where` admits it. */
function followingSentence(view: EvidenceView, sentence: Sentence, where: (sentence: Sentence) => boolean): Sentence | undefined {
  return view.sentences.find((other) => other.passage === sentence.passage && other.order === sentence.order + 1 && where(other));
}

/** How well the evidence covers a question: the inputs of the abstention rule. */
export interface Coverage {
  /** Share of the question's names and identifiers that occur nowhere in the evidence (as a phrase); the asker's own (relative paths, "our HTTP API") never count as missing. */
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
  // The asker's own things (a relative path: `config/settings.toml`; "our HTTP API") no page names:
  // their absence says nothing of whether the docs cover the question.
  const missing = analysis.anchors.filter((anchor) => !askersOwn(analysis.question, anchor) && !evidenceText.includes(` ${words(anchor).join(' ')} `)).length;
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
