/**
 * How directly a set of sentences states the answer to a question: a few general features (how
 * much of the question the sentences hold, its names, the relation and kind of answer asked, how
 * high the searches ranked them) and the rule over them ({@link statesAnswer}) that decides
 * whether the offline planner answers or shows the closest passages. The rule's thresholds were
 * fitted on one dev set and checked on the others (scripts/fit-offline-answers.ts,
 * docs/calibration.md "Direct answers").
 */
import type { EvidenceView, Sentence } from './evidence-view.ts';
import { answerType, GENERAL_ACTIONS } from './answer-scoring.ts';
import { askedAttribute, namesAttribute } from './focus.ts';
import { holdsTerm } from './related-terms.ts';
import { askedRelations, asksDefaultValue, holdsValue, isDefaultField, statesRelation } from './relations.ts';
import { contentTerms, identifiers, stem, words } from '../../text/text.ts';
import type { QuestionAnalysis } from '../../text/question.ts';

/** The features of a candidate answer, each in [0, 1]. */
export interface DirectnessFeatures {
  /** Weighted share of the question's terms the sentences hold themselves. */
  ownCover: number;
  /** The same, counting the terms of the headings above the sentences. */
  contextCover: number;
  /** Weighted share of the first sentence's own hold of the question's terms (the most direct one alone). */
  firstCover: number;
  /** Share of the question's names and identifiers written in the sentences or the headings above them (1 when it names none). */
  anchors: number;
  /** Share of the relations the question asks ("default", "instead", "why") worded in the sentences (1 when it asks none). */
  relations: number;
  /**
   * Whether the sentences hold the kind of answer asked: a number for "how many", an identifier
   * for "which option", the attribute for "who is the wife of ..." (1 otherwise).
   */
  answerKind: number;
  /** The first sentence's passage score against the best of its search (1: the top result). */
  rank: number;
}

/**
 * When sentences state the answer: they and the headings above them hold at least
 * `minContextCover` of the question's weighted terms (a term also counts when a word docs use
 * for it is there: "large" for "big"), the lead sentence's passage scores at least `minRank` of
 * its search's top result, and they hold the kind of answer asked. The thresholds were fitted on
 * graphile-worker-dev (the most correct answers at a precision of at least 70%) and checked on the
 * other dev sets (scripts/fit-offline-answers.ts, docs/calibration.md "Direct answers").
 */
export interface DirectnessRule {
  minContextCover: number;
  minRank: number;
  /** Share of the question's names the sentences or their headings must write (an answer about half the things asked is about something else). */
  minAnchors: number;
}

export const DEFAULT_DIRECTNESS_RULE: DirectnessRule = { minContextCover: 0.9, minRank: 0, minAnchors: 0.5 };

/**
 * The features of `sentences` (the first is the most direct) as an answer to the view's question;
 * `answeredByChain`: question terms the answer's chain of hops names by another word (see
 * extract-answer.ts `chainedSlots`), which no sentence needs to write.
 *
 * @example
 * directnessFeatures(view, [sentence], relevance).ownCover; // 0.8
 */
export function directnessFeatures(view: EvidenceView, sentences: Sentence[], relevance: (sentence: Sentence) => number, answeredByChain: string[] = []): DirectnessFeatures {
  const { analysis } = view;
  // The words of the question's form ("how long", "what does X mean") ask for an answer; they are
  // not its topic; nor is the thing a chain of hops named ("country" of "Damerjog's country"), nor
  // the kind of thing asked ("which command") when the sentences name one.
  const joined = sentences.map((sentence) => sentence.text).join(' ');
  const asking = new Set([...interrogativeTerms(analysis.question), ...answeredByChain, ...(namesThing(joined, analysis.question) ? kindNouns(analysis.question) : [])]);
  const questionTerms = [...new Set(analysis.terms)].filter((term) => !asking.has(term));
  // A follow-up that asks something of its own ("and how do I cancel it?", not "and how do I fix
  // it?") is answered by a sentence that does it to the conversation's subject: the subject's
  // borrowed terms ("orbit enqueue job") count as one term, held by a sentence that holds any of
  // them ("a queued job"), and one sentence must hold it all.
  const borrowed = new Set(analysis.carriedTerms ?? []);
  const asksOwn = questionTerms.some((term) => !borrowed.has(term) && !GENERAL_ACTIONS.has(term));
  const subject = asksOwn ? questionTerms.filter((term) => borrowed.has(term)) : [];
  const terms = questionTerms.filter((term) => !subject.includes(term));
  const weight = (term: string) => view.weight(term) || 1;
  const subjectWeight = Math.max(0, ...subject.map(weight));
  const total = terms.reduce((sum, term) => sum + weight(term), 0) + subjectWeight || 1;
  const share = (has: (term: string) => boolean) =>
    (terms.filter(has).reduce((sum, term) => sum + weight(term), 0) + (subject.some(has) ? subjectWeight : 0)) / total;
  // A term is held when the sentence holds it or a word docs use for it ("large" for "big").
  const holds = holdsTerm;
  const first = sentences[0];
  const text = joined.toLowerCase();
  const context = sentences.map((sentence) => sentence.contextText).join(' ');
  const anchors = analysis.anchors.map((anchor) => words(anchor).join(' ')).filter((anchor) => anchor !== '');
  const flat = ` ${words(text).join(' ')} ${words(context).join(' ')} `;
  const relations = askedRelations(analysis.parts);
  const cover = (holder: (sentence: Sentence, term: string) => boolean) =>
    subject.length === 0
      ? share((term) => sentences.some((sentence) => holder(sentence, term)))
      : Math.max(0, ...sentences.map((sentence) => share((term) => holder(sentence, term))));
  return {
    ownCover: cover((sentence, term) => holds(sentence.terms, term)),
    contextCover: cover((sentence, term) => holds(sentence.terms, term) || holds(sentence.context, term)),
    firstCover: first === undefined ? 0 : share((term) => holds(first.terms, term)),
    anchors: anchors.length === 0 ? 1 : anchors.filter((anchor) => flat.includes(` ${anchor} `)).length / anchors.length,
    relations: relations.length === 0 ? 1 : relations.filter((relation) => statesRelation(relation, joined)).length / relations.length,
    answerKind: answerKindHeld(analysis.question, joined, sentences) * (namesAttributesAsked(analysis, joined) ? 1 : 0),
    rank: first === undefined ? 0 : relevance(first),
  };
}

/** The question forms that ask for a number ("when" and "which version" may be answered in words; a default value by {@link asksDefaultValue}). */
const ASKS_NUMBER = /\bhow (?:many|much|long|often|big|large)\b|\bwhat(?:'s| is) the (?:limit|maximum|minimum)\b/i;

/** A number, in digits or in words ("sixty seconds", "twice"). */
const NUMBER = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|once|twice|dozen)\b/i;

/** Words of the interrogative phrase that asks for the answer: "long" of "how long", "mean" of "what does X mean", "control" of "what does X control" (what X does), "happen" of "what happens". */
const INTERROGATIVE = /\bhow (many|much|long|often|big|large|soon)\b|\bwhat (?:does|do) .+? (mean|control)\b|\bwhat (happens?)\b/gi;

/** The same in Chinese, simplified or traditional: the noun a question word asks for, the answer's kind ("球队" of "哪个球队", "公司" of "什麼公司"). */
const CHINESE_INTERROGATIVE = /(?:哪[个個些种種位家所座部条條]?|什么|什麼|甚麼|多少|[几幾][个個种種位])(\p{sc=Han}{2})/gu;

/**
 * The noun an interrogative determiner asks for an instance of ("command" of "which command",
 * "commande" of "quelle commande", "Datei" of "in welcher Datei", "paquete" of "qué paquete",
 * "команда" of "какая команда"), in the languages written with spaces whose determiner is a word
 * of its own. A sentence answers it with a name ("`lsmod` lists ..."), not with the noun.
 */
const KIND_NOUN =
  /(?:^|[\s¿¡("«„])(?:which|what|quel(?:le)?s?|welche[rsnm]?|welk[e]?|qu[ée]|cu[aá]l(?:es)?|qual(?:e|i|is)?|quale|как(?:ой|ая|ое|ие|ого|ую|ом|им|их|ими)|котор(?:ый|ая|ое|ые|ого|ую|ом))\s+(\p{L}[\p{L}\p{M}-]*)/giu;

/** The stems of the nouns {@link KIND_NOUN} finds in a question. */
function kindNouns(question: string): string[] {
  return [...question.matchAll(KIND_NOUN)].flatMap((match) => contentTerms(match[1]!));
}

/**
 * Whether a text names a thing as code that the question does not name itself: a code span, or an
 * identifier with a mark of code in it (`_`, `.`, `/`, `:`, `-` or a digit: `ORBIT_MAX_TASKS`,
 * `os.walk`), not a capitalised word of prose ("SuperSonics" answers no "what river"). The thing
 * asked for is another than the question's own names: "Which release added `ORBIT_MAX_TASKS`?"
 * is not answered by a sentence that names only `ORBIT_MAX_TASKS`.
 */
function namesThing(text: string, question: string): boolean {
  // identifiers() holds the question's code spans too.
  const own = new Set(identifiers(question).map((name) => name.toLowerCase()));
  const named = [...codeSpans(text), ...identifiers(text).filter((name) => /[_./:\d-]/.test(name))];
  return named.some((name) => !own.has(name.toLowerCase()));
}

/** The code spans of a text, without their backticks. */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

function interrogativeTerms(question: string): string[] {
  const english = [...question.matchAll(INTERROGATIVE)].flatMap((match) => match.slice(1).filter((word): word is string => word !== undefined)).map((word) => stem(word.toLowerCase()));
  return [...english, ...Array.from(question.matchAll(CHINESE_INTERROGATIVE), (match) => match[1]!)];
}

/** Whether the text names every attribute the question's parts ask for ("the wife of ...": a wife, or "married"), see {@link askedAttribute}. */
function namesAttributesAsked(analysis: QuestionAnalysis, text: string): boolean {
  return analysis.parts.every((part) => {
    const attribute = askedAttribute(part.text);
    return attribute === undefined || namesAttribute(text, attribute);
  });
}

function answerKindHeld(question: string, text: string, sentences: Sentence[]): number {
  switch (answerType(question)) {
    case 'quantity':
      // A value in a sentence that says it is the default, or in a table row under a Default column.
      if (asksDefaultValue(question)) {
        return sentences.some(
          (sentence) => isDefaultField(sentence.text) || (statesRelation('default', `${sentence.text} ${sentence.tableHeader ?? ''}`) && (NUMBER.test(sentence.text) || holdsValue(sentence.text))),
        )
          ? 1
          : 0;
      }
      return !ASKS_NUMBER.test(question) || NUMBER.test(text) ? 1 : 0;
    case 'name':
      return identifiers(text).length > 0 || /`[^`]+`/.test(text) ? 1 : 0;
    default:
      return 1;
  }
}

/**
 * Whether the sentences state the answer, by the rule.
 *
 * @example
 * statesAnswer(directnessFeatures(view, sentences, relevance)); // false: show the closest passages
 */
export function statesAnswer(features: DirectnessFeatures, rule: DirectnessRule = DEFAULT_DIRECTNESS_RULE): boolean {
  return features.contextCover >= rule.minContextCover && features.rank >= rule.minRank && features.anchors >= rule.minAnchors && features.answerKind === 1;
}
