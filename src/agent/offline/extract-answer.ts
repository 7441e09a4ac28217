import type { ModelAnswer } from '../answer.ts';
import type { Conversation } from './conversation.ts';
import { EvidenceView, type Sentence } from './evidence-view.ts';
import { versionInPlay } from './planner.ts';
import type { QuestionAnalysis } from './question.ts';
import { identifiers, plainText, stem, words } from './text.ts';

/** Thresholds of the abstention rule (calibrated on Orbit: docs/calibration.md). */
export interface AbstainOptions {
  /** Weighted share of the question's terms that must occur somewhere in the evidence. */
  minCoverage: number;
  /** Share of the question's names and identifiers ("Apache Kafka", "ORB-1202") that may be absent from the evidence. */
  maxMissingAnchorShare: number;
}

export const DEFAULT_ABSTAIN_OPTIONS: AbstainOptions = { minCoverage: 0.6, maxMissingAnchorShare: 0.4 };

/** Citations an extractive answer carries at most. */
const MAX_QUOTES = 4;

/**
 * Writes the final answer from the evidence alone: for each part of the question, the sentence
 * that best answers it, quoted verbatim with its doc id (so every citation verifies), plus the
 * best sentence of the last hop. Abstains when the evidence does not cover the question.
 *
 * @example
 * extractAnswer(analyzeQuestion(question), readConversation(prompt));
 */
export function extractAnswer(
  analysis: QuestionAnalysis,
  conversation: Conversation,
  options: AbstainOptions = DEFAULT_ABSTAIN_OPTIONS,
): ModelAnswer {
  const view = new EvidenceView(analysis, conversation, versionInPlay(analysis, conversation));
  const abstain: ModelAnswer = { text: '', citations: [], abstained: true };
  if (view.sentences.length === 0 || !covers(analysis, view, options)) return abstain;
  const selected: Sentence[] = [];
  const add = (sentence: Sentence | undefined) => {
    if (sentence && !selected.includes(sentence) && selected.length < MAX_QUOTES) selected.push(sentence);
  };
  for (const part of analysis.parts) add(bestSentence(view, part.terms, []));
  if (analysis.compositional && conversation.searches.length > 1) {
    const lastHop = conversation.searches.length - 1;
    const learned = words(conversation.searches.at(-1)?.query ?? '').map(stem);
    add(bestSentence(view, [...analysis.terms, ...learned], selected, (sentence) => sentence.passage.searchIndex === lastHop));
  }
  if (selected.length === 0) return abstain;
  return {
    text: selected.map((sentence) => plainText(sentence.text)).join(' '),
    citations: selected.map((sentence) => ({ doc_id: sentence.passage.docId, quote: sentence.text })),
    abstained: false,
  };
}

/** How well the evidence covers a question: the inputs of the abstention rule. */
export interface Coverage {
  /** Share of the question's names and identifiers that occur nowhere in the evidence (as a phrase). */
  missingAnchorShare: number;
  /** Weighted share of the question's terms found anywhere in the evidence. */
  total: number;
  /** Weighted share of the question's terms found in the single best passage. */
  bestPassage: number;
}

/** Measures how well the evidence covers the question. */
export function coverage(analysis: QuestionAnalysis, view: EvidenceView): Coverage {
  const seen = view.allTerms();
  const evidenceText = ` ${view.passages.flatMap((passage) => passage.texts).map((text) => words(text).join(' ')).join(' ')} `;
  const missing = analysis.anchors.filter((anchor) => !evidenceText.includes(` ${words(anchor).join(' ')} `)).length;
  const bestPassage = Math.max(
    0,
    ...view.passages.map((passage) => view.overlap(analysis.terms, new Set([...passage.texts, passage.heading].flatMap((text) => words(text).map(stem))))),
  );
  return {
    missingAnchorShare: analysis.anchors.length === 0 ? 0 : missing / analysis.anchors.length,
    total: view.overlap(analysis.terms, seen),
    bestPassage,
  };
}

/** The abstention rule: enough of the question's terms, and all of its key terms, occur in the evidence. */
export function covers(analysis: QuestionAnalysis, view: EvidenceView, options: AbstainOptions): boolean {
  const measured = coverage(analysis, view);
  return measured.missingAnchorShare <= options.maxMissingAnchorShare && measured.total >= options.minCoverage;
}

function bestSentence(
  view: EvidenceView,
  terms: string[],
  exclude: Sentence[],
  where: (sentence: Sentence) => boolean = () => true,
): Sentence | undefined {
  let best: { sentence: Sentence; score: number } | undefined;
  const unique = [...new Set(terms)];
  for (const sentence of view.sentences) {
    if (exclude.includes(sentence) || !where(sentence)) continue;
    let score = 0;
    for (const term of unique) if (sentence.terms.has(term)) score += view.weight(term) || 0.5;
    if (score === 0) continue;
    score += Math.min(identifiers(sentence.text).length, 2) * 0.25;
    score /= 1 + Math.max(0, words(sentence.text).length - 40) / 40;
    score *= 1 / (1 + 0.05 * Math.min(sentence.passage.rank, 10));
    if (!best || score > best.score) best = { sentence, score };
  }
  return best?.sentence;
}
