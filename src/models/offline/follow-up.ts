// Follow-up questions: "and how do I roll that back?" names nothing itself; its searches carry the earlier turn's terms.
import type { Conversation } from './conversation.ts';
import { analyzeQuestion, detectVersion, originalWords, type QuestionAnalysis } from '../../text/question.ts';
import { contentTerms } from '../../text/text.ts';

/**
 * Words that open a question continuing the last one ("and ...", "what about ..."), in English
 * and in the languages whose abstention Atlas says (agent/trust/abstain-text.ts): Russian
 * "а ...", German "und ...", French "et ...", Chinese 那, Japanese じゃあ. No one-letter word (Spanish
 * "y", Portuguese "e"): English questions open with those letters too.
 */
const CONTINUATION =
  /^(?:(?:and|also|so|then|but|or|plus|what about|how about|what if|same for|and what about|а|и|но|или|тогда|також|і|und|aber|oder|dann|auch|was ist mit|et|mais|ou|alors|aussi|puis|pero|entonces|también|mas|então|também|ma|allora|anche|en|maar|dus|ook)(?![\p{L}\p{N}])|那|还有|另外|然后|じゃあ|では|それで|それと|あと|그럼|그러면|그리고)/iu;
/**
 * Words that point back at something said earlier instead of naming it: English's, and the
 * demonstratives and pronouns of the same languages that are no article (not German "das",
 * French "le") nor another language's common word (not German "es", Spanish for "is"); Chinese
 * 它 这个, Japanese それ この, Korean 그것.
 */
const REFERRING =
  /(?<![\p{L}\p{N}])(?:that|this|it|its|these|those|them|they|their|there|the same|the former|the latter|the above|the previous|the last one|это|этот|эта|эти|этого|этой|этому|этим|этих|эту|его|её|ее|их|там|туда|него|неё|нее|них|такой|такое|такая|тот|та|те|того|той|тех|ту|це|цей|ця|ці|цього|цієї|цим|цих|цю|її|їх|diese|dieser|dieses|diesem|diesen|ihn|ihm|ihnen|dort|davon|damit|dafür|dazu|darauf|ça|cela|ceci|celui|celle|ceux|celles|esto|eso|ese|esa|esos|esas|este|esta|estos|estas|ello|allí|ahí|isso|isto|esse|essa|esses|essas|aquilo|questo|questa|questi|queste|quello|quella|ciò|dit|dat|deze|daar|ervan)(?![\p{L}\p{N}])|它|这个|那个|这些|那些|这样|那样|这里|那里|それ|これ|あれ|その|この|あの|そこ|ここ|그것|이것|그거|이거|거기/iu;
/** A question with at most this many content terms, and a referring word, leans on the earlier turn. */
const MAX_OWN_TERMS = 3;
/** Words of a question that ask rather than name ("What does X mean?", "How does X work?"): never carried. */
const ASKING_WORDS = new Set(['mean', 'means', 'meaning', 'work', 'works', 'explain', 'difference', 'example', 'examples']);
/** Earlier terms a follow-up's searches carry at most. */
const MAX_CARRIED_TERMS = 8;

/**
 * Whether a question continues the conversation rather than standing alone: it opens with a
 * continuation ("and ...", "what about ..."), or it has a referring word ("that", "it", "them")
 * and few content terms of its own and names nothing (no identifier, no proper name).
 *
 * @example
 * isFollowUp('and how do I roll that back?'); // true
 * isFollowUp('How do I set the lease duration in Orbit 3.x?'); // false
 */
export function isFollowUp(question: string): boolean {
  const text = question.trim();
  if (CONTINUATION.test(text)) return true;
  const analysis = analyzeQuestion(text);
  return REFERRING.test(text) && analysis.anchors.length === 0 && analysis.terms.length <= MAX_OWN_TERMS;
}

/**
 * The question as the planner searches it: unchanged when it stands alone or the conversation
 * has no earlier turn; for a follow-up, the question followed by the content words of the
 * earlier question it continues (as written, at most {@link MAX_CARRIED_TERMS}, words it already
 * has left out, and words that ask rather than name such as "mean"; its names and identifiers
 * first, as written), that earlier question itself expanded the same way when it was a follow-up
 * too. The release line named earlier stays in play unless the follow-up names its own. Only the
 * searches and reads use this; the answer is chosen for the question as asked.
 *
 * @example
 * // earlier turn: 'How do I deploy Orbit with Docker?'
 * withEarlierTurns(analyzeQuestion('and how do I stop it safely?'), conversation).question;
 * // 'and how do I stop it safely? deploy Orbit Docker'
 */
export function withEarlierTurns(analysis: QuestionAnalysis, conversation: Pick<Conversation, 'earlierQuestions'>): QuestionAnalysis {
  const earlier = conversation.earlierQuestions;
  if (earlier.length === 0 || !isFollowUp(analysis.question)) return analysis;
  const previous = searchedQuestion(earlier.slice(0, -1), earlier.at(-1)!);
  const own = new Set(contentTerms(analysis.question));
  const previousAnalysis = analyzeQuestion(previous);
  // Names and identifiers as written ("ORB-1501", "Kubernetes"), then the other content words.
  const anchors = previousAnalysis.anchors.filter((anchor) => !contentTerms(anchor).every((term) => own.has(term)));
  const inAnchors = new Set(anchors.flatMap((anchor) => contentTerms(anchor)));
  const others = originalWords(previous, previousAnalysis.terms.filter((term) => !own.has(term) && !inAnchors.has(term))).filter((word) => !ASKING_WORDS.has(word.toLowerCase()));
  const carried = [...anchors, ...others].slice(0, MAX_CARRIED_TERMS);
  // A release line ("3.x") is a filter, not a word to search: it is carried as the version.
  const searchable = carried.filter((word) => !/^\d+(?:\.x|\.\d+)*$/i.test(word));
  if (searchable.length === 0 && previousAnalysis.version === undefined) return analysis;
  const expanded = analyzeQuestion(`${analysis.question} ${searchable.join(' ')}`.trim());
  const version = analysis.version ?? previousAnalysis.version;
  return { ...expanded, ...(version ? { version } : {}) };
}

/** An earlier question as it was searched: expanded by the questions before it when it was a follow-up. */
function searchedQuestion(before: string[], question: string): string {
  if (before.length === 0 || !isFollowUp(question)) return question;
  const expanded = withEarlierTurns(analyzeQuestion(question), { earlierQuestions: before });
  // Keep the release line in the text, so the next follow-up carries it on.
  return expanded.version && detectVersion(expanded.question) !== expanded.version ? `${expanded.question} ${expanded.version}` : expanded.question;
}

/**
 * The analysis a follow-up's answer is chosen with: the question as asked (its parts, names and
 * identifiers, so the abstention rules judge only what it names itself), with the terms its
 * searches carried added to its topic words, so a sentence about the earlier subject ("its
 * logs" of systemd) outranks one about another.
 *
 * @example
 * answerAnalysis(analyzeQuestion('and how do I read its logs?'), searched).terms; // ['read', 'log', 'orbit', 'deploy', 'systemd']
 */
export function answerAnalysis(asked: QuestionAnalysis, searched: QuestionAnalysis): QuestionAnalysis {
  if (asked === searched) return asked;
  const carried = searched.terms.filter((term) => !asked.terms.includes(term));
  if (carried.length === 0) return asked;
  return {
    ...asked,
    terms: [...asked.terms, ...carried],
    carriedTerms: carried,
    parts: asked.parts.map((part) => ({ ...part, terms: [...part.terms, ...carried.filter((term) => !part.terms.includes(term))] })),
  };
}
