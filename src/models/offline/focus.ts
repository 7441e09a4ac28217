import { isGenericTerm, type EvidenceView } from './evidence-view.ts';
import { termForms } from './related-terms.ts';
import { stem, STOPWORDS, termSet, words } from '../../text/text.ts';

/**
 * Words that say what kind of thing is asked for, not which one ("a built-in option to encrypt
 * payloads"), and what one does with it ("to disable ..."): when the thing asked about is only
 * such words, its clause names it.
 */
const KIND_WORDS = new Set(
  (
    'option options setting settings way ways feature features support mechanism method means config configuration flag parameter ' +
    'built in builtin native official easy simple supported automatic automated dedicated ' +
    // What one does with a setting, not the setting: "an option to disable prepared statements".
    'set configure change enable disable turn specify define adjust override customise customize use make get allow'
  )
    .split(' ')
    .map(stem),
);

/** Where the phrase asked about ends: a preposition, a conjunction or a comma. */
const PHRASE_END = String.raw`(?=\s+(?:for|to|that|which|who|in|on|of|at|when|if|so|per|with|without|instead|from|into|by|after|before|such|as|out|or|and|than|while|because)\b|\s*[,;:?.!(]|$)`;

/** The clause after a kind of thing: "(an option) to encrypt job payloads (at rest)". */
const CLAUSE = new RegExp(String.raw`^\s*(?:to|for)\s+(.+?)${PHRASE_END}`, 'i');

/**
 * Question forms that ask whether a thing exists or how to set it up, and the phrase they ask
 * about: "Is there a maximum size for ..." (maximum size), "How do I set a per-job execution
 * timeout so ..." (per-job execution timeout), "Can I change the retry delay for ..." (retry
 * delay), "Does the worker expose an HTTP health-check endpoint ..." (HTTP health-check endpoint).
 */
const FORMS: RegExp[] = [
  new RegExp(String.raw`^(?:is|are) there (?:(?:a|an|any|some)\s+)?(.+?)${PHRASE_END}(.*)$`, 'i'),
  new RegExp(
    String.raw`^how (?:do|can|could|should|would) (?:i|we|you) (?:set|configure|change|enable|disable|specify|define|adjust|override|customi[sz]e|turn on|turn off)(?: up)? (?:(?:a|an|the|my|our|its|their)\s+)?(.+?)${PHRASE_END}(.*)$`,
    'i',
  ),
  new RegExp(
    String.raw`^can (?:i|we|you) (?:set|configure|change|enable|disable|specify|define|adjust|override|customi[sz]e|turn on|turn off) (?:(?:a|an|the|my|our|its|their)\s+)?(.+?)${PHRASE_END}(.*)$`,
    'i',
  ),
  new RegExp(
    String.raw`^(?:does|do|will|can) .+? (?:support|expose|offer|provide|have|include|ship|come with)s? (?!to\b)(?:(?:a|an|any|the|some)\s+)?(.+?)${PHRASE_END}(.*)$`,
    'i',
  ),
];

/**
 * The phrase a part of a question asks about, as stemmed content terms, when the part asks
 * whether a thing exists or how to set it up (see {@link FORMS}); `undefined` for other parts.
 * When the phrase is only a kind of thing ("a built-in option", "a way"), the clause after it
 * names the thing ("to encrypt job payloads"). Phrases of one term say too little to test.
 *
 * @example
 * questionFocus('Is there a maximum size for a job payload'); // ['maximum', 'siz']
 * questionFocus('Is there a built-in option to encrypt job payloads at rest'); // ['encrypt', 'job', 'payload']
 */
export function questionFocus(part: string): string[] | undefined {
  const text = part.replace(/\s+/g, ' ').trim();
  for (const form of FORMS) {
    const match = form.exec(text);
    if (!match) continue;
    let terms = phraseTerms(match[1] ?? '');
    if (terms.length === 0) terms = phraseTerms(CLAUSE.exec(match[2] ?? '')?.[1] ?? '');
    return terms.length >= 2 ? terms : undefined;
  }
  return undefined;
}

/**
 * The terms of a phrase that name the thing: kind words, generic words ("name", "number") and
 * stopwords left out; a past participle after a word of the thing ends it, as a relative clause
 * would ("an event emitted when ..." is about an event).
 */
function phraseTerms(phrase: string): string[] {
  const kept: string[] = [];
  for (const word of words(phrase)) {
    if (STOPWORDS.has(word) || word.length < 2) continue;
    if (kept.length > 0 && /[a-z]{2}ed$/.test(word)) break;
    const term = stem(word);
    if (!KIND_WORDS.has(term) && !isGenericTerm(term) && !kept.includes(term)) kept.push(term);
  }
  return kept;
}

/**
 * How much of the phrase one sentence of the evidence names: the largest share of its terms held
 * by one prose sentence, each term itself or as a word docs use for it ("max" for "maximum"), in
 * the sentence, a camelCase name of it (`pollInterval` names "poll interval") or the headings
 * above it. 1 means some sentence speaks of the very thing asked about.
 *
 * @example
 * focusShare(view, ['retry', 'delay']); // 0.5 when sentences speak of retries and of delays, never of a retry delay
 */
export function focusShare(view: EvidenceView, focus: string[]): number {
  if (focus.length === 0) return 1;
  const alternatives = focus.map((term) => termForms(term));
  let best = 0;
  for (const sentence of view.sentences) {
    if (sentence.heading || sentence.placeholder) continue;
    const split = termSet(sentence.text.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));
    const held = alternatives.filter((options) => options.some((term) => sentence.terms.has(term) || sentence.context.has(term) || split.has(term))).length;
    best = Math.max(best, held / focus.length);
    if (best === 1) break;
  }
  return best;
}

/**
 * "Who is the wife of X?", "Who was the first president of Y's country?": a question that asks
 * for an attribute of a thing, in the form "who/what/which is the <attribute> of ...". An
 * answer names the attribute (or a word texts use for it: "married" for "wife"), else it speaks
 * of the thing but not of what was asked.
 */
const ATTRIBUTE_FORM = /^(?:who|what|which)(?:'s|\s+(?:is|was|are|were))\s+the\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+of\s/i;

/** Words before an attribute that change which one is meant ("the first president", "the current owner"). */
const ORDINALS = new Set('first second third fourth fifth last final current former present original founding'.split(' '));

/**
 * The attribute a part of a question asks for (see {@link ATTRIBUTE_FORM}), as stemmed terms
 * in order: its noun and the ordinals before it; `undefined` when the part has another form or
 * the noun is generic ("the name of", "the kind of": the words after "of" name the thing).
 *
 * @example
 * askedAttribute('Who was the first president of Damerjog\'s country'); // ['first', 'president']
 * askedAttribute('What is the name of the waterfall'); // undefined
 */
export function askedAttribute(part: string): string[] | undefined {
  const match = ATTRIBUTE_FORM.exec(part.replace(/\s+/g, ' ').trim());
  if (!match) return undefined;
  const phrase = words(match[1]!).filter((word) => !STOPWORDS.has(word));
  const head = phrase.at(-1);
  if (head === undefined || isGenericTerm(stem(head)) || KIND_WORDS.has(stem(head))) return undefined;
  return [...phrase.slice(0, -1).filter((word) => ORDINALS.has(word)), head].map(stem);
}

/**
 * Whether a text names an attribute: its terms in a row, each itself or a word texts use for it.
 *
 * @example
 * namesAttribute('He married Ri Sol-ju in 2009.', [stem('wife')]); // true
 * namesAttribute('In its first century, the President reported to Congress.', ['first', 'president']); // false
 */
export function namesAttribute(text: string, attribute: string[]): boolean {
  const sequence = words(text).map(stem);
  const options = attribute.map((term) => new Set(termForms(term)));
  return sequence.some((_, start) => options.every((accepted, offset) => accepted.has(sequence[start + offset] ?? '')));
}
