/**
 * The relation a part of a question asks about ("what is the default", "what should I use
 * instead", "why", "how do I", "is it safe") and the wording a documentation sentence uses when it
 * states that relation. General English of technical and reference writing, not tied to a corpus.
 */

/** What a part of a question asks for, beyond its topic words. */
export type Relation = 'default' | 'default value' | 'instead' | 'cause' | 'how' | 'condition' | 'quantity' | 'effect';

/**
 * A part that asks what a default is ("what is its default?", "the default value of X"): a value,
 * not a behaviour ("is it enabled by default?"). A sentence states it only with the value.
 */
const ASKS_DEFAULT_VALUE = /\bwhat(?:'s| is| are) (?:the|its|their) defaults?\b|\bdefault values?\b|\bdefaults? to what\b|\bwhat does .+ default to\b/i;

/**
 * True when a question or its part asks for a default value.
 *
 * @example
 * asksDefaultValue('What is its default?'); // true
 * asksDefaultValue('Are retries enabled by default?'); // false
 */
export function asksDefaultValue(text: string): boolean {
  return ASKS_DEFAULT_VALUE.test(text);
}

const ASKS: Array<[Relation, RegExp]> = [
  ['default value', ASKS_DEFAULT_VALUE],
  ['default', /\bdefaults?\b|\bout of the box\b|\bleft (?:at|alone)\b|\bnever changed\b|\benabled\b|\bdisabled\b/i],
  ['instead', /\binstead\b|\brather\b|\balternative\b|\bwhat should (?:i|we|it|the \w+) (?:do|use|return|call|set)\b|\bbetter\b|\brecommend/i],
  ['cause', /\bwhy\b|\bwhat(?:'s| is) (?:going on|wrong|happening)\b|\bcause[sd]?\b|\breason\b|\bwhat am i doing wrong\b/i],
  ['how', /\bhow (?:do|can|should|would|could) (?:i|we|you|a|the|it)\b|\bhow to\b|\bwhat do i (?:call|use|set|run)\b|\bwhich (?:setting|option|flag|variable)\b/i],
  ['condition', /\bsafe\b|\bwhen (?:is|can|should|does)\b|\bcan i\b|\bis it (?:possible|ok|allowed)\b|\bwill (?:it|that|this)\b|\bdo i need\b/i],
  ['quantity', /\bhow (?:many|much|long|often|big|large|soon)\b|\bwhat (?:is the )?(?:limit|maximum|minimum|threshold|size)\b|\blongest\b|\bshortest\b|\bwhich versions?\b/i],
  ['effect', /\bwhat (?:does|do|will|would) (?:it|this|that|the \S+(?: \S+)?) do\b|\bwhat (?:happens|gets worse|changes)\b|\bwhat (?:is|are) (?:it|they|the \S+) for\b|\bwhat does\b.*\bcontrol\b|^what (?:is|are) (?:the |a |an )?(?!its\b|their\b)\S+(?: \S+){0,2}$/i],
];

const STATES_DEFAULT = /\bdefaults?\b|\bby default\b|\bunless\b|\bis (?:enabled|disabled|on|off)\b/i;

/** A value a default may be: a number, code, or a literal (`false`, `'stack'`, `[]`, true, null, ...). */
const VALUE = /\d|`[^`]+`|\b(?:true|false|null|none|undefined|unset|empty)\b/i;

/**
 * Whether a text gives a value in digits, as code or as a literal.
 *
 * @example
 * holdsValue('**Default:** `1 / maxWorkers`'); // true
 * holdsValue('By default, memory is split evenly.'); // false
 */
export function holdsValue(text: string): boolean {
  return VALUE.test(text);
}

/** A field line that gives a default: `Default: number of logical CPUs`, `- **Default:** \`5\``, `Default value: 480_000`. */
const DEFAULT_FIELD = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?defaults?(?: value)?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*\S/i;

/**
 * Whether a text gives a default as a field line (`Default: number of logical CPUs`): what follows
 * the label is the default value, in words or not.
 *
 * @example
 * isDefaultField('- Default: number of logical CPUs'); // true
 * isDefaultField('By default, memory is split evenly.'); // false
 */
export function isDefaultField(text: string): boolean {
  return DEFAULT_FIELD.test(text);
}

const STATES: Record<Relation, RegExp | ((sentence: string) => boolean)> = {
  default: STATES_DEFAULT,
  'default value': (sentence) => (STATES_DEFAULT.test(sentence) && holdsValue(sentence)) || isDefaultField(sentence),
  instead: /\binstead\b|\brather than\b|\buse\b|\bprefer\b|\brecommend|\bshould\b|\bbetter\b|\balternatively\b/i,
  cause: /\bbecause\b|\bsince\b|\bdue to\b|\bso that\b|\bcaus|\bmeans\b|\botherwise\b|\bresult(?:s|ing)? in\b|\bthis is why\b|\bif\b/i,
  how: /\b(?:set|use|call|pass|add|run|enable|configure|install|specify|provide|create)\b|\byou (?:can|should|must|need)\b|\bto do (?:this|so)\b|`[^`]+`/i,
  condition: /\bsafe\b|\bunsafe\b|\bonly\b|\bmust(?: not)?\b|\bnever\b|\bshould not\b|\bwhen\b|\bif\b|\bunless\b|\bsupported\b|\bnot\b/i,
  quantity: /\d/,
  effect: /\b(?:is|are|controls?|determines?|enables?|allows?|causes?|makes?|means?|will|lets?)\b/i,
};

/**
 * The relations a question part asks about, in a fixed order.
 *
 * @example
 * relationsOf('what is its default value?'); // ['default']
 * relationsOf('why do the docs warn against relying on it?'); // ['cause']
 */
export function relationsOf(text: string): Relation[] {
  const asked = ASKS.filter(([, pattern]) => pattern.test(text)).map(([relation]) => relation);
  // Asking for the default value asks for a default: one relation, the stricter.
  return asked.includes('default value') ? asked.filter((relation) => relation !== 'default') : asked;
}

/**
 * The relations the parts of a question ask about, each once, in the order the parts ask them.
 *
 * @example
 * askedRelations([{ text: 'Which error is it' }, { text: 'what should the step return instead' }]); // ['instead']
 */
export function askedRelations(parts: ReadonlyArray<{ text: string }>): Relation[] {
  return [...new Set(parts.flatMap((part) => relationsOf(part.text)))];
}

/**
 * Relations a sentence states by naming them ("defaults to", "use ... instead", "we recommend"),
 * where the others are worded with what most sentences hold ("if", "is", a digit, a code span).
 */
const NAMED_RELATIONS: ReadonlySet<Relation> = new Set<Relation>(['default', 'default value', 'instead']);

/**
 * True when a sentence that states `relation` names it, so that stating it sets the sentence apart.
 *
 * @example
 * isNamedRelation('instead'); // true
 * isNamedRelation('effect'); // false: "is", "controls", "will" are in most sentences
 */
export function isNamedRelation(relation: Relation): boolean {
  return NAMED_RELATIONS.has(relation);
}

/**
 * True when a sentence is worded the way documentation states `relation`.
 *
 * @example
 * statesRelation('default', 'Default value: `5_000`'); // true
 */
export function statesRelation(relation: Relation, sentence: string): boolean {
  const states = STATES[relation];
  return typeof states === 'function' ? states(sentence) : states.test(sentence);
}
