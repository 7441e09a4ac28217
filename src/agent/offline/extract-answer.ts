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
  const version = versionInPlay(analysis, conversation);
  const view = new EvidenceView(analysis, conversation, version);
  const abstain: ModelAnswer = { text: '', citations: [], abstained: true };
  if (view.sentences.length === 0 || !covers(analysis, view, options)) return abstain;
  const score = sentenceScorer(view, conversation, version);
  const selected: Sentence[] = [];
  const add = (sentence: Sentence | undefined) => {
    if (sentence && !selected.includes(sentence) && selected.length < MAX_QUOTES) selected.push(sentence);
  };
  for (const part of analysis.parts) add(bestSentence(view, part.terms, score, selected));
  // The page the question itself ranked first is most often the home of the fact: quote it too.
  const top = conversation.searches[0]?.chunkIds[0];
  if (top && !selected.some((sentence) => sentence.passage.chunkId === top)) {
    add(bestSentence(view, analysis.terms, score, selected, (sentence) => sentence.passage.chunkId === top));
  }
  if (analysis.compositional && conversation.searches.length > 1) {
    const lastHop = conversation.searches.length - 1;
    const learned = words(conversation.searches.at(-1)?.query ?? '').map(stem);
    add(bestSentence(view, [...analysis.terms, ...learned], score, selected, (sentence) => sentence.passage.searchIndex === lastHop));
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

type SentenceScore = (sentence: Sentence, terms: string[]) => number;

/**
 * Scores a sentence for answering: the question terms it holds, a little extra for identifiers
 * (answers are often names of settings or codes), less for long sentences, more for passages
 * the searches ranked high, and much less when it speaks of another release line than the run's.
 */
function sentenceScorer(view: EvidenceView, conversation: Conversation, version: string | undefined): SentenceScore {
  const best = conversation.searches.map((search) =>
    Math.max(0, ...search.chunkIds.map((chunkId) => conversation.passages.get(chunkId)?.score ?? 0)),
  );
  // Identifiers the question names ("raise_errors", "ORB-1404") must appear as such, not as parts.
  const named = identifiers(view.analysis.question).map((identifier) => identifier.toLowerCase());
  // Words most evidence sentences share ("job", "orbit") say little about which one answers.
  const frequency = new Map<string, number>();
  for (const sentence of view.sentences) for (const term of sentence.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const total = Math.max(1, view.sentences.length);
  const specificity = (term: string) => Math.log(1 + total / (frequency.get(term) ?? 1)) / Math.log(1 + total);
  const wants = answerType(view.analysis.question);
  return (sentence, terms) => {
    let score = 0;
    for (const term of terms) if (sentence.terms.has(term)) score += (view.weight(term) || 0.5) * (0.5 + specificity(term));
    if (score === 0) return 0;
    const { passage } = sentence;
    const lower = sentence.text.toLowerCase();
    score += 3 * named.filter((identifier) => lower.includes(identifier)).length;
    score += Math.min(identifiers(sentence.text).length, 2) * (wants === 'name' ? 1 : 0.25);
    if (wants === 'quantity' && /\d/.test(sentence.text)) score += 1;
    score /= 1 + Math.max(0, words(sentence.text).length - 40) / 40;
    const top = best[passage.searchIndex] ?? 0;
    const relevance = top > 0 && passage.score > 0 ? passage.score / top : 0.5;
    score *= 0.6 + 0.4 * relevance;
    if (version && mentionsOtherVersion(sentence.text, version)) score *= 0.2;
    // Prose answers; a line of a code sample or log is a poor quote.
    if (sentence.code) score *= 0.3;
    return score;
  };
}

/**
 * What kind of answer the question asks for: a name (which setting, option, key, error, command,
 * variable, metric, field...), a quantity (how many, how long, what default, which version), or
 * anything else.
 */
export function answerType(question: string): 'name' | 'quantity' | 'other' {
  const text = question.toLowerCase();
  if (/\b(?:how (?:many|much|long|often|big|large)|what(?:'s| is) the (?:default|limit|maximum|minimum)|which (?:version|release)|when)\b/.test(text)) return 'quantity';
  if (/\b(?:which|what)\s+(?:\w+\s+)?(?:setting|option|key|variable|env(?:ironment)? var\w*|flag|parameter|field|error|code|exception|command|metric|endpoint|method|function|header|section|value|name)s?\b/.test(text)) return 'name';
  return 'other';
}

/** True when a sentence names a release line other than `version` and not `version` itself. */
export function mentionsOtherVersion(text: string, version: string): boolean {
  const major = /^v?(\d+)/.exec(version)?.[1];
  if (major === undefined) return false;
  const mentioned = [...text.matchAll(/\b(\d+)\.x\b|\bv(\d+)(?:\.\d+)*\b|\b(?:version|release|Orbit)\s+(\d+)(?:\.\d+)*\b/gi)].map(
    (match) => match[1] ?? match[2] ?? match[3],
  );
  return mentioned.length > 0 && !mentioned.includes(major);
}

function bestSentence(
  view: EvidenceView,
  terms: string[],
  score: SentenceScore,
  exclude: Sentence[],
  where: (sentence: Sentence) => boolean = () => true,
): Sentence | undefined {
  let best: { sentence: Sentence; score: number } | undefined;
  const unique = [...new Set(terms)];
  for (const sentence of view.sentences) {
    if (exclude.includes(sentence) || !where(sentence)) continue;
    const value = score(sentence, unique);
    if (value > 0 && (!best || value > best.score)) best = { sentence, score: value };
  }
  return best?.sentence;
}
