/**
 * The relation a part of a question asks about ("what is the default", "what should I use
 * instead", "why", "how do I", "is it safe") and the wording a documentation sentence uses when it
 * states that relation. General English of technical and reference writing, not tied to a corpus.
 */

/** What a part of a question asks for, beyond its topic words. */
export type Relation = 'default' | 'instead' | 'cause' | 'how' | 'condition' | 'quantity' | 'effect';

const ASKS: Array<[Relation, RegExp]> = [
  ['default', /\bdefaults?\b|\bout of the box\b|\bleft (?:at|alone)\b|\bnever changed\b|\benabled\b|\bdisabled\b/i],
  ['instead', /\binstead\b|\brather\b|\balternative\b|\bwhat should (?:i|we|it|the \w+) (?:do|use|return|call|set)\b|\bbetter\b|\brecommend/i],
  ['cause', /\bwhy\b|\bwhat(?:'s| is) (?:going on|wrong|happening)\b|\bcause[sd]?\b|\breason\b|\bwhat am i doing wrong\b/i],
  ['how', /\bhow (?:do|can|should|would|could) (?:i|we|you|a|the|it)\b|\bhow to\b|\bwhat do i (?:call|use|set|run)\b|\bwhich (?:setting|option|flag|variable)\b/i],
  ['condition', /\bsafe\b|\bwhen (?:is|can|should|does)\b|\bcan i\b|\bis it (?:possible|ok|allowed)\b|\bwill (?:it|that|this)\b|\bdo i need\b/i],
  ['quantity', /\bhow (?:many|much|long|often|big|large|soon)\b|\bwhat (?:is the )?(?:limit|maximum|minimum|threshold|size)\b|\blongest\b|\bshortest\b|\bwhich versions?\b/i],
  ['effect', /\bwhat (?:does|do|will|would) (?:it|this|that|the \S+(?: \S+)?) do\b|\bwhat (?:happens|gets worse|changes)\b|\bwhat (?:is|are) (?:it|they|the \S+) for\b|\bwhat does\b.*\bcontrol\b|^what (?:is|are) (?:the |a |an )?(?!its\b|their\b)\S+(?: \S+){0,2}$/i],
];

const STATES: Record<Relation, RegExp> = {
  default: /\bdefaults?\b|\bby default\b|\bunless\b|\bis (?:enabled|disabled|on|off)\b/i,
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
  return ASKS.filter(([, pattern]) => pattern.test(text)).map(([relation]) => relation);
}

/**
 * True when a sentence is worded the way documentation states `relation`.
 *
 * @example
 * statesRelation('default', 'Default value: `5_000`'); // true
 */
export function statesRelation(relation: Relation, sentence: string): boolean {
  return STATES[relation].test(sentence);
}
