import type { Conversation, Passage } from './conversation.ts';
import type { EvidenceView, Sentence } from './evidence-view.ts';
import { asksDefaultValue, statesRelation, type Relation } from './relations.ts';
import { isPlaceholderNote } from './plain-text.ts';
import { contentTerms, identifiers, stem, termSet, words } from '../../text/text.ts';

/** Scores how well a sentence answers a set of question terms and relations; 0 means "not at all". */
export type SentenceScore = (sentence: Sentence, terms: string[], relations: Relation[]) => number;

/**
 * What a sentence gains when its code names the action a "how do I ..." question asks for
 * (`cancel` of "how do I cancel it?"), and again when it opens with that action as its purpose
 * ("To cancel a job, ...").
 */
const ACTION_BONUS = 2;

/**
 * What the first prose sentence of a section named after the thing a "what is X?" / "what does X
 * do?" question asks about gains: reference docs open a section with what its subject is or does
 * ("Make an iterator that returns consecutive keys and groups from the iterable." under
 * `itertools.groupby(iterable, key=None)`), and the sentence does not repeat the name its heading
 * gives. Twice a name the question writes (3). Measured with bench/question-forms.ts (4 to 10 alike
 * on four doc sets): docs/calibration.md, Session 16.
 */
const LEAD_BONUS = 6;

/** Verbs too general to say what is asked ("how do I use it?", "and how do I fix it?"), stemmed. */
export const GENERAL_ACTIONS: ReadonlySet<string> = new Set(
  ['be', 'do', 'get', 'have', 'make', 'use', 'set', 'know', 'tell', 'see', 'find', 'go', 'fix', 'solve', 'resolve', 'avoid', 'handle', 'deal', 'work', 'happen'].map(stem),
);

/**
 * The action a "how do I ..." question asks how to perform, stemmed: "cancel" of "and how do I
 * cancel it?"; undefined for other questions and for general verbs.
 *
 * @example
 * askedAction('How can I retry a failed job?'); // 'retry'
 */
export function askedAction(question: string): string | undefined {
  const verb = /\bhow (?:do|can|could|should|would|to)(?: (?:i|we|you|one))? (?:best |then |also )?([a-z]+)\b/i.exec(question)?.[1];
  if (verb === undefined) return undefined;
  const stemmed = stem(verb.toLowerCase());
  return GENERAL_ACTIONS.has(stemmed) ? undefined : stemmed;
}

/**
 * The subject of a question that asks what its subject is or does ("What is X?", "What does X
 * do?", "What is X for?", "What does X mean?"), lower-cased and without an article; undefined for
 * other questions.
 *
 * @example
 * definitionSubject('What does cargo yank do?'); // 'cargo yank'
 */
function definitionSubject(question: string): string | undefined {
  const subject = /^\s*what(?:'s| is| are| does| do)\s+([^,;?]+?)(?:\s+(?:do|mean|for|control|controls))?\s*\??\s*$/i.exec(question)?.[1];
  return subject?.replace(/^(?:a|an|the)\s+/i, '').toLowerCase();
}

function asksDefinition(question: string): boolean {
  return definitionSubject(question) !== undefined;
}

/**
 * Whether a sentence opens by naming the action as its purpose ("To mock a module completely,
 * you can use the `vi.mock` API."): how-to docs state how to do a thing in that form, and a
 * sentence that mentions the thing in passing ("In this example, if `original` calls `mocked`
 * ...") holds the same words.
 */
function opensWithPurpose(text: string, action: string): boolean {
  const verb = /^\s*(?:[-*]\s+)?(?:\*\*)?(?:to|in order to)\s+([a-z]+)/i.exec(text)?.[1];
  return verb !== undefined && stem(verb.toLowerCase()) === action;
}

/** Whether one of a sentence's code spans or identifiers has `action` as one of its words (`Client.cancel`, `cancel()`, `retryJob`). */
function namesAction(sentenceIdentifiers: string[], action: string): boolean {
  return sentenceIdentifiers.some((identifier) => words(identifier.replace(/([a-z])([A-Z])/g, '$1 $2')).some((word) => stem(word) === action));
}

/** Share of its weight a question term (other than a name) keeps when it is found only in the headings above a sentence. */
const CONTEXT_SHARE = 0.5;

/**
 * Scores a sentence for answering: the question terms it holds (terms found only in the headings
 * above it count half: "Default value: 5_000" under "worker.gracefulShutdownAbortTimeout"), the
 * identifiers the question names, the relations asked ("default", "instead", "why") worded in the
 * sentence, the lead sentence of the section a "what does X do?" question names
 * ({@link LEAD_BONUS}), more for passages the searches ranked high; less for long sentences, code lines,
 * table rows that name nothing the question does, TODO notes, and sentences about another
 * release line than the run's; nothing for headings and for sentences repeated on several pages under
 * different headings (boilerplate).
 */
export function createSentenceScorer(view: EvidenceView, conversation: Conversation, version: string | undefined): SentenceScore {
  const relevanceOf = createRelevance(conversation);
  // Identifiers the question names ("raise_errors", "ORB-1404") must appear as such, not as parts;
  // a call's empty parentheses aside (`retryJob()` names retryJob), not its arguments (`f(3)`).
  const named = identifiers(view.analysis.question).map((identifier) => identifier.toLowerCase().replace(/`/g, '').replace(/\(\)$/, ''));
  // Words most evidence sentences share ("job", "orbit") say little about which one answers.
  const frequency = new Map<string, number>();
  for (const sentence of view.sentences) for (const term of sentence.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const total = Math.max(1, view.sentences.length);
  const specificity = (term: string) => Math.log(1 + total / (frequency.get(term) ?? 1)) / Math.log(1 + total);
  const wants = answerType(view.analysis.question);
  const action = askedAction(view.analysis.question);
  // "What is the default value of X?" asks for a value, not for what X is.
  const definitional = asksDefinition(view.analysis.question) && !asksDefaultValue(view.analysis.question);
  // A subject in plain words ("What does cargo yank do?"): the page titled with it opens with what it
  // is or does (a man page's NAME line, a guide's first sentence).
  const plainSubject = definitional && named.length === 0 ? contentTerms(definitionSubject(view.analysis.question) ?? '') : [];
  const pageLeads = new Map<Passage, number>();
  for (const sentence of view.sentences) {
    if (sentence.leadOf === undefined || !sentence.passage.chunkId.endsWith('#0')) continue;
    pageLeads.set(sentence.passage, Math.min(sentence.order, pageLeads.get(sentence.passage) ?? Infinity));
  }
  const opensPageOnSubject = (sentence: Sentence) =>
    plainSubject.length > 0 &&
    pageLeads.get(sentence.passage) === sentence.order &&
    plainSubject.every((term) => termSet(sentence.passage.title ?? sentence.passage.headingPath?.split(' > ')[0] ?? '').has(term));
  // The question's names and identifiers in a heading name the subject of every sentence under it.
  const keys = new Set(view.analysis.keyTerms);
  // A sentence repeated on several pages under different headings is boilerplate (a sponsor note,
  // a shared warning). Under the same heading it is a copy of the section (a site's print view, a
  // README copied into the docs, the section in two releases): each copy scores as any sentence.
  const placesOf = new Map<string, { docs: Set<string>; headings: Set<string> }>();
  for (const sentence of view.sentences) {
    const places = placesOf.get(sentence.text) ?? { docs: new Set<string>(), headings: new Set<string>() };
    places.docs.add(sentence.passage.docId);
    places.headings.add(sentence.passage.heading);
    placesOf.set(sentence.text, places);
  }
  const boilerplate = (text: string) => {
    const places = placesOf.get(text);
    return places !== undefined && places.docs.size > 1 && places.headings.size > 1;
  };
  return (sentence, terms, relations) => {
    if (sentence.heading || boilerplate(sentence.text)) return 0;
    let score = 0;
    let own = 0;
    for (const term of terms) {
      const value = (view.weight(term) || 0.5) * (0.5 + specificity(term));
      if (sentence.terms.has(term)) {
        score += value;
        own += 1;
      } else if (sentence.context.has(term)) score += (keys.has(term) ? 1 : CONTEXT_SHARE) * value;
    }
    if (score === 0) return 0;
    const lower = sentence.text.toLowerCase();
    const namedHere = named.filter((identifier) => mentionsIdentifier(lower, identifier)).length;
    const namedAbove = named.filter((identifier) => !mentionsIdentifier(lower, identifier) && mentionsIdentifier(sentence.contextText, identifier)).length;
    score += 3 * namedHere + 3 * namedAbove;
    const sentenceIdentifiers = identifiers(sentence.text);
    if (action !== undefined && namesAction(sentenceIdentifiers, action)) score += ACTION_BONUS;
    if (action !== undefined && opensWithPurpose(sentence.text, action)) score += ACTION_BONUS;
    const leadOf = sentence.leadOf;
    if (definitional && leadOf !== undefined && named.some((identifier) => mentionsIdentifier(leadOf, identifier))) score += LEAD_BONUS;
    if (opensPageOnSubject(sentence)) score += LEAD_BONUS;
    const stated = relations.filter((relation) => statesRelation(relation, sentence.text)).length;
    if (relations.length > 0) score *= 1 + (0.5 * stated) / relations.length;
    score += Math.min(sentenceIdentifiers.length, 2) * (wants === 'name' ? 1 : 0.25);
    if (wants === 'quantity' && /\d/.test(sentence.text)) score += 1;
    score /= 1 + Math.max(0, words(sentence.text).length - 40) / 40;
    score *= 0.6 + 0.4 * relevanceOf(sentence);
    if (version && mentionsOtherVersion(sentence.text, version)) score *= 0.2;
    // Prose answers; a line of a code sample or log is a poor quote, a TODO says the docs do not know.
    if (sentence.code) score *= 0.3;
    if (sentence.placeholder || isPlaceholderNote(sentence.text)) score *= 0.1;
    // A line that mostly points to other pages ("[Error codes](error-codes.md): ...") is navigation.
    if (linkShare(sentence.text) > 0.4) score *= 0.3;
    // A table row answers only when it names what the question asks about.
    if (sentence.text.startsWith('|') && namedHere === 0 && own < 2) score *= 0.4;
    return score;
  };
}

/**
 * Whether `text` names `identifier` itself, not a longer one it begins or ends
 * (`build.rustc-wrapper`, `my_build.rustc`): no letter, digit, `_` or `-` around it but a plural
 * `s` ("DataFrames"), and no `.` followed by more of a name after it. A dotted name may stand
 * before it (`options.retryDelay` names `retryDelay`). Both lower-cased.
 *
 * @example
 * mentionsIdentifier('#### `build.rustc-wrapper`', 'build.rustc'); // false
 * mentionsIdentifier('set `build.rustc`.', 'build.rustc'); // true
 * mentionsIdentifier('returning dataframes', 'dataframe'); // true
 */
export function mentionsIdentifier(text: string, identifier: string): boolean {
  for (let at = text.indexOf(identifier); at >= 0; at = text.indexOf(identifier, at + 1)) {
    const end = at + identifier.length;
    const after = text.slice(end, end + 4);
    if (!/[\w-]/.test(text.charAt(at - 1)) && (!/^(?:[\w-]|\.\w)/.test(after) || /^e?s(?![\w-])/.test(after))) return true;
  }
  return false;
}

/**
 * A sentence's passage relevance: its score against the best of its ranking (0.5 when either is
 * unknown). The pages of one query (page 2, 3, ...) are one ranking: measured against their own
 * first hit, ranks 11-15 would count as much as the question's top passage.
 *
 * @example
 * createRelevance(conversation)(sentence); // 1 for a sentence of the search's top passage
 */
export function createRelevance(conversation: Conversation): (sentence: Sentence) => number {
  const rankingOf = (search: Conversation['searches'][number]) => `${search.version ?? ''}\u0000${search.query}`;
  const topOfRanking = new Map<string, number>();
  for (const search of conversation.searches) {
    const top = Math.max(0, ...search.chunkIds.map((chunkId) => conversation.passages.get(chunkId)?.score ?? 0));
    topOfRanking.set(rankingOf(search), Math.max(top, topOfRanking.get(rankingOf(search)) ?? 0));
  }
  const best = conversation.searches.map((search) => topOfRanking.get(rankingOf(search)) ?? 0);
  return ({ passage }) => {
    const top = best[passage.searchIndex] ?? 0;
    return top > 0 && passage.score > 0 ? Math.min(1, passage.score / top) : 0.5;
  };
}

/** Share of a sentence's characters that are link texts. */
function linkShare(text: string): number {
  let linked = 0;
  for (const match of text.matchAll(/\[([^\]\n]*)\]\([^)\s]*\)/g)) linked += (match[1] ?? '').length;
  const plain = text.replace(/\]\([^)\s]*\)/g, ']').length;
  return plain === 0 ? 0 : linked / plain;
}

/**
 * What kind of answer the question asks for: a name (which setting, option, key, error, command,
 * variable, metric, field, file, package, tool...; up to two words between: "which Orbit 3
 * setting"), a quantity (how many, how long, what default, which version), or anything else.
 *
 * @example
 * answerType('How many times is a job retried by default?'); // 'quantity'
 */
export function answerType(question: string): 'name' | 'quantity' | 'other' {
  const text = question.toLowerCase();
  if (asksDefaultValue(text) || /\b(?:how (?:many|much|long|often|big|large)|what(?:'s| is) the (?:limit|maximum|minimum)|which (?:version|release)|when)\b/.test(text)) return 'quantity';
  if (JAPANESE_QUANTITY.test(question)) return 'quantity';
  if (/\b(?:which|what)\s+(?:[\w.-]+\s+){0,2}(?:setting|option|key|variable|env(?:ironment)? var\w*|flag|parameter|field|error|code|exception|command|metric|endpoint|method|function|header|section|value|name|file|director(?:y|ie)|folder|path|package|tool|program|librar(?:y|ie)|module|class|interface)s?\b/.test(text)) return 'name';
  return 'other';
}

/**
 * The Japanese forms that ask for a number or a time: いくつ, いくら, どのくらい, 何人, 何年,
 * 何メートル (何 and a katakana unit), いつ. The Chinese ones (多少, 几个, 哪一年, 什么时候) measured
 * +1 correct and +2 wrong answers on every 10th question of cmrc2018-dev, so they are not read
 * (docs/calibration.md, Session 18).
 */
const JAPANESE_QUANTITY = /いくつ|いくら|[どこ]の(?:くらい|ぐらい)|どれ(?:くらい|ぐらい)|何[人個回年月日件種本歳度倍割つ]|何[\u30a1-\u30fa\u30fc]|いつ/;

/**
 * True when a sentence names a release line other than `version` and not `version` itself.
 *
 * @example
 * mentionsOtherVersion('In 2.x the lease is fixed.', '3.x'); // true
 */
export function mentionsOtherVersion(text: string, version: string): boolean {
  const major = /^v?(\d+)/.exec(version)?.[1];
  if (major === undefined) return false;
  const mentioned = [...text.matchAll(/\b(\d+)\.x\b|\bv(\d+)(?:\.\d+)*\b|\b(?:version|release|Orbit)\s+(\d+)(?:\.\d+)*\b/gi)].map(
    (match) => match[1] ?? match[2] ?? match[3],
  );
  return mentioned.length > 0 && !mentioned.includes(major);
}
