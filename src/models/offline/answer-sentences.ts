import type { Conversation } from './conversation.ts';
import { isFieldLine, isGenericTerm, type EvidenceView, type Sentence } from './evidence-view.ts';
import type { SentenceScore } from './answer-scoring.ts';
import { analyzeQuestion, type QuestionAnalysis } from '../../text/question.ts';
import { askedRelations, relationsOf, statesRelation, type Relation } from './relations.ts';
import { holdsTerm } from './related-terms.ts';
import { codeAfter, codeEntries, showsDiff } from '../../text/code-blocks.ts';
import { contentTerms, contentWords, identifiers, stem, termSet, words } from '../../text/text.ts';

/** Sentences an answer states at most, each with its citation marker. */
export const MAX_SENTENCES = 3;
/** A further sentence joins the answer when it scores this share of the first one (for what is still missing). */
const NEXT_SHARE = 0.35;
/** A sentence of another passage than the first one's counts this share of its score. */
const OTHER_PASSAGE_SHARE = 0.8;
/** The top passage's best sentence leads the answer when it scores this share of the best sentence anywhere. */
const TOP_PASSAGE_SHARE = 0.8;
/** Words a sentence needs to be quoted as an answer ("(Since v0.16)" is not one). */
export const MIN_SENTENCE_WORDS = 4;

/**
 * The end of a sentence whose statement is the code after it: a preposition, a verb or a pointer
 * before the colon ("is roughly equivalent to:", "looks like this:", "as follows:", "for
 * example:"; German, French and Spanish "wie folgt:", "comme suit :", "como sigue:"). A sentence
 * that only introduces its example in passing ("..., and let the downstream step load it:")
 * states something itself.
 */
const LEADS_INTO_CODE = /\b(?:to|as|like|by|with|of|is|are|was|were|be|this|these|follows?|following|below|example|instance|folgt|folgendermaßen|suit|suivante?s?|sigue|siguientes?)\s*:\s*$/i;

/** A line that is one link, maybe a list item's: a contents page's entry. */
const ONLY_A_LINK = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?\[[^\]\n]*\]\([^)\s]*\)[\s.,;:]*$/;

/**
 * Whether a sentence can be quoted as an answer: not a heading, and a sentence of some words, or a
 * field line that states a relation asked ("**Default:** ..." for a question that asks the default).
 */
export function quotableSentence(sentence: Sentence, relations: Relation[]): boolean {
  // A placeholder note ("TODO: which options should we recommend?") says the docs do not know.
  if (sentence.heading || sentence.placeholder) return false;
  // "`groupby()` is roughly equivalent to:" says what the code below says; without it, nothing.
  if (sentence.introducesCode && sentence.example === undefined && LEADS_INTO_CODE.test(sentence.text)) return false;
  // A line that is one link ("[`sqlite3` — DB-API 2.0 interface](sqlite3.html)", a contents page's entry) points elsewhere.
  if (ONLY_A_LINK.test(sentence.text)) return false;
  if (words(sentence.text).length >= MIN_SENTENCE_WORDS) return true;
  return isFieldLine(sentence.text) && relations.some((relation) => statesRelation(relation, sentence.text));
}

/**
 * Up to 3 sentences that together answer the question: the best sentence of any part first, then
 * greedily the sentence that best answers what the chosen ones do not hold yet (the question's
 * terms and the terms its hops learned, the relations asked and not yet worded), a sentence of
 * the first one's passage preferred (the rest of an answer most often stands beside it), while
 * it scores {@link NEXT_SHARE} of the first.
 */
export function selectSentences(analysis: QuestionAnalysis, view: EvidenceView, score: SentenceScore, conversation: Conversation): Sentence[] {
  const relations = askedRelations(analysis.parts);
  const quotable = (sentence: Sentence) => quotableSentence(sentence, relations);
  let first: { sentence: Sentence; score: number } | undefined;
  for (const part of analysis.parts) {
    const found = bestSentence(view, part.terms, relationsOf(part.text), score, [], quotable);
    if (found && (first === undefined || found.score > first.score)) first = found;
  }
  if (first === undefined) return [];
  // The passage the question itself ranked first is most often the home of the fact: its best
  // sentence leads when it answers nearly as well.
  const top = conversation.searches[0]?.chunkIds[0];
  const atTop = top === undefined ? undefined : bestSentence(view, analysis.terms, relations, score, [], (sentence) => quotable(sentence) && sentence.passage.chunkId === top);
  if (atTop && atTop.score >= TOP_PASSAGE_SHARE * first.score) first = atTop;
  const learned = conversation.searches.slice(1).flatMap((search) => contentTerms(search.query)).filter((term) => !analysis.terms.includes(term));
  const wanted = [...new Set([...analysis.terms, ...learned])];
  // A sentence that names the chain's names carries the answer on, from whichever page, and is sought for them.
  const chain = chainNames(analysis, conversation, first.sentence);
  const chosen = [first.sentence];
  const next = continuation(view, first.sentence, relations);
  if (next && quotable(next)) chosen.push(next);
  while (chosen.length < MAX_SENTENCES) {
    // A term is held when a chosen sentence or a heading above it says it, in the question's word or the docs' (directness counts the same).
    const held = (term: string) => chosen.some((sentence) => holdsTerm(sentence.terms, term));
    const terms = wanted.filter((term) => !held(term));
    const open = relations.filter((relation) => !chosen.some((sentence) => statesRelation(relation, sentence.text)));
    if (terms.length === 0 && open.length === 0) break;
    let found: { sentence: Sentence; score: number } | undefined;
    for (const sentence of view.sentences) {
      if (chosen.includes(sentence) || !quotable(sentence) || pointsElsewhere(sentence.text)) continue;
      const carries = sentence.passage === first.sentence.passage || chain.some((term) => sentence.terms.has(term));
      const value = score(sentence, [...(terms.length > 0 ? terms : wanted), ...chain], open) * (carries ? 1 : OTHER_PASSAGE_SHARE);
      if (value > 0 && (found === undefined || value > found.score)) found = { sentence, score: value };
    }
    if (found === undefined || found.score < NEXT_SHARE * first.score) break;
    chosen.push(found.sentence);
  }
  return chosen;
}

/**
 * The chain of a question that reaches its answer through a possessive name ("Damerjog's
 * country"): the names the searches after the first asked for and the question does not write
 * (the key terms of a hop's query: "Djibouti" of "Damerdjog Djibouti Arta Region president
 * country") that the answer's first sentence writes ("... located in eastern Djibouti"). Empty
 * for a question without a possessive name.
 */
export function chainNames(analysis: QuestionAnalysis, conversation: Conversation, first: Sentence): string[] {
  if (possessiveSlots(analysis.question).length === 0) return [];
  const asked = new Set(conversation.searches.slice(1).flatMap((search) => analyzeQuestion(search.query).keyTerms));
  return [...asked].filter((term) => !analysis.terms.includes(term) && first.terms.has(term));
}

/** The noun a possessive name leads to, past a word before it ("Damerjog's country", "Big Eye's main director"). */
const POSSESSIVE_SLOT = /\b\p{Lu}[\p{L}\p{N}-]*['’]s\s+(?:(\p{Ll}+)\s+)?(\p{Ll}+)/gu;

/**
 * The things a question reaches through a possessive name, stemmed: "country" of "Who was the
 * first president of Damerjog's country?", "director" of "Big Eye's main director" (a generic
 * word before the noun is passed over, another word is the noun: "Orbit's lease" gives "leas").
 *
 * @example
 * possessiveSlots("Who was the first president of Damerjog's country?"); // ['country']
 */
export function possessiveSlots(question: string): string[] {
  return [...question.matchAll(POSSESSIVE_SLOT)].map((match) => stem(match[1] !== undefined && !isGenericTerm(stem(match[1])) ? match[1] : match[2]!));
}

/** A sentence that only says where something is told ("Step signatures are described in the [Flow API](api-flow.md)."). */
const POINTER = /\b(?:described|explained|documented|covered|detailed|listed|shown)\s+(?:in|on|under)\b|^\s*(?:see|refer to|read)\b|\bfor (?:more|details|the full)\b/i;

/** Whether a sentence points to another page for what it would tell, rather than telling it: a further answer sentence says something itself. */
function pointsElsewhere(text: string): boolean {
  return /\[[^\]]+\]\([^)]+\)/.test(text) && POINTER.test(text);
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

/** The best sentence for `terms` and `relations` among those `where` admits, `exclude` left out. */
export function bestSentence(
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

/**
 * The share of new content words a further answer sentence needs, unless it names a new
 * identifier ({@link withoutRepeats}): half. No answer of the dev and held-out sets, cmrc2018-dev
 * (every 10th) or bench/european-docs.ts and japanese-docs.ts changes with it; the README's
 * question loses its third sentence (3 of 10 words new). Without the identifier rule, at 0.3 and
 * 0.5, 2 and 3 Orbit answers lost a sentence naming a command, setting or error (`orbit config
 * show`, `[security]`, `StepTimeout`; docs/calibration.md, Session 27).
 */
const MIN_NEW_SHARE = 0.5;

/**
 * A further sentence that says again what the ones before it say, left out of the answer: under
 * {@link MIN_NEW_SHARE} of its content words are new, and it names no identifier they do not.
 * "A step whose return value is larger than the payload limit fails with `ORB-1202
 * PayloadTooLarge`." after "A step that returns a large value directly fails with `ORB-1202
 * PayloadTooLarge` after it has done all its work." adds nothing a reader needs.
 */
export function withoutRepeats(selected: Sentence[]): Sentence[] {
  const kept: Sentence[] = [];
  for (const sentence of selected) if (kept.length === 0 || !repeats(sentence, kept)) kept.push(sentence);
  return kept;
}

/** Whether `sentence` adds under {@link MIN_NEW_SHARE} new content words to `before`, and no identifier. */
function repeats(sentence: Sentence, before: Sentence[]): boolean {
  const named = new Set(before.flatMap((other) => identifiers(other.text).map((name) => name.toLowerCase())));
  if (identifiers(sentence.text).some((name) => !named.has(name.toLowerCase()))) return false;
  const said = new Set(before.flatMap((other) => contentWords(other.text).map(stem)));
  const own = [...new Set(contentWords(sentence.text).map(stem))];
  return own.length > 0 && own.filter((term) => !said.has(term)).length < MIN_NEW_SHARE * own.length;
}

/** Question terms an entry of a longer example must hold to be shown after the sentence introducing it. */
const MIN_ENTRY_TERMS = 3;

/**
 * The entry of the longer example a sentence introduces that holds the most of the question's
 * terms (at least {@link MIN_ENTRY_TERMS}), its whitespace collapsed: "The following CLI options
 * are available:" is followed by `--poll-interval how long to wait between polling for jobs in
 * milliseconds (for jobs scheduled in the future/retries)` for a question on jobs scheduled in
 * the future. Undefined for a sentence that introduces no example, a short one (shown whole), a
 * diff, or an example no entry of which holds enough of the question.
 */
export function exampleEntry(view: EvidenceView, sentence: Sentence): string | undefined {
  if (!sentence.introducesCode || sentence.example !== undefined) return undefined;
  const block = codeAfter(sentence.passage.texts, sentence.text);
  if (block === undefined || showsDiff(block.code)) return undefined;
  let best: { entry: string; score: number } | undefined;
  for (const entry of codeEntries(block.code)) {
    const terms = termSet(entry);
    const score = view.heldWeight(terms);
    if (view.heldTerms(terms).length >= MIN_ENTRY_TERMS && (best === undefined || score > best.score)) best = { entry, score };
  }
  return best?.entry.replace(/\s+/g, ' ').trim();
}
