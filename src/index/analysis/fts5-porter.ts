/**
 * The Porter stemmer exactly as SQLite FTS5 implements it (the `porter` tokenizer of
 * fts5_tokenize.c), which differs from other ports in small ways that change terms: it works on
 * the UTF-8 bytes of the folded token, every byte of a non-ASCII character counts as a
 * consonant, only tokens of 3 to 64 bytes are stemmed, and a rule whose suffix matches but whose
 * condition fails ends its step (no shorter suffix is tried).
 */

/** Tokens longer than this many UTF-8 bytes pass through unstemmed, as in FTS5. */
export const PORTER_MAX_TOKEN_BYTES = 64;

const A = 0x61;
const E = 0x65;
const I = 0x69;
const L = 0x6c;
const O = 0x6f;
const S = 0x73;
const T = 0x74;
const U = 0x75;
const W = 0x77;
const X = 0x78;
const Y = 0x79;
const Z = 0x7a;

/** One suffix rule: replace `suffix` by `output` when `condition` holds for the stem before it. */
interface Rule {
  suffix: Uint8Array;
  output: Uint8Array;
  condition: (word: Uint8Array, stemLength: number) => boolean;
}

function isVowel(byte: number, yIsVowel: boolean): boolean {
  return byte === A || byte === E || byte === I || byte === O || byte === U || (yIsVowel && byte === Y);
}

/**
 * Skips one vowel-consonant sequence from `start` (the measure's `VC`): returns the index after
 * its consonant, relative to `start` and plus one, or 0 when there is none (FTS5's GobbleVC).
 */
function gobbleVowelConsonant(word: Uint8Array, start: number, end: number, previousConsonant: boolean): number {
  let consonant = previousConsonant;
  let i = start;
  for (; i < end; i++) {
    consonant = !isVowel(word[i] ?? 0, consonant);
    if (!consonant) break;
  }
  for (i++; i < end; i++) {
    consonant = !isVowel(word[i] ?? 0, consonant);
    if (consonant) return i + 1 - start;
  }
  return 0;
}

/** m > 0 */
function measureAbove0(word: Uint8Array, length: number): boolean {
  return gobbleVowelConsonant(word, 0, length, false) !== 0;
}

/** m > 1 */
function measureAbove1(word: Uint8Array, length: number): boolean {
  const first = gobbleVowelConsonant(word, 0, length, false);
  return first !== 0 && gobbleVowelConsonant(word, first, length, true) !== 0;
}

/** m = 1 */
function measureIs1(word: Uint8Array, length: number): boolean {
  const first = gobbleVowelConsonant(word, 0, length, false);
  return first !== 0 && gobbleVowelConsonant(word, first, length, true) === 0;
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(word: Uint8Array, length: number): boolean {
  const last = word[length - 1];
  if (last === W || last === X || last === Y) return false;
  let mask = 0;
  let consonant = false;
  for (let i = 0; i < length; i++) {
    consonant = !isVowel(word[i] ?? 0, consonant);
    mask = ((mask << 1) | (consonant ? 1 : 0)) & 7;
  }
  return mask === 5;
}

/** *v*: a vowel anywhere (y counts after the first letter). */
function hasVowel(word: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i++) if (isVowel(word[i] ?? 0, i > 0)) return true;
  return false;
}

function measureAbove1EndsSOrT(word: Uint8Array, length: number): boolean {
  const last = word[length - 1];
  return (last === S || last === T) && measureAbove1(word, length);
}

const always = (): boolean => true;

function rules(condition: Rule['condition'], pairs: string): Rule[] {
  const encoder = new TextEncoder();
  return pairs.split(' ').map((pair) => {
    const [suffix = '', output = ''] = pair.split('>');
    return { suffix: encoder.encode(suffix), output: encoder.encode(output), condition };
  });
}

/**
 * A step's rules grouped by their suffix's next-to-last byte, in FTS5's order (its generated code
 * switches on that byte): only the group of the word's next-to-last byte can match.
 */
type Step = ReadonlyArray<readonly Rule[] | undefined>;

function step(...groups: Rule[][]): Step {
  const byPenultimate: Rule[][] = [];
  for (const rule of groups.flat()) (byPenultimate[rule.suffix[rule.suffix.length - 2] ?? 0] ??= []).push(rule);
  return byPenultimate;
}

/** Each step's rules in FTS5's order: the first suffix that matches (leaving a stem) decides. */
const EED = new TextEncoder().encode('eed');
const STEP_1B = step(rules(hasVowel, 'ed> ing>'));
const STEP_1B2 = step(rules(always, 'at>ate bl>ble iz>ize'));
const STEP_2 = step(
  rules(
    measureAbove0,
    'ational>ate tional>tion enci>ence anci>ance izer>ize logi>log bli>ble alli>al entli>ent eli>e ' +
      'ousli>ous ization>ize ation>ate ator>ate alism>al iveness>ive fulness>ful ousness>ous aliti>al ' +
      'iviti>ive biliti>ble',
  ),
);
const STEP_3 = step(rules(measureAbove0, 'ical>ic ness> icate>ic iciti>ic ful> ative> alize>al'));
const STEP_4 = step(
  rules(measureAbove1, 'al> ance> ence> er> ic> able> ible> ant> ement> ment> ent>'),
  rules(measureAbove1EndsSOrT, 'ion>'),
  rules(measureAbove1, 'ou> ism> ate> iti> ous> ive> ize>'),
);

function endsWith(word: Uint8Array, length: number, suffix: Uint8Array): boolean {
  const offset = length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (word[offset + i] !== suffix[i]) return false;
  return true;
}

/**
 * Applies the first rule of `step` whose suffix ends the word with a non-empty stem before it.
 * Returns the new length and whether that rule's condition held and it was applied.
 */
function applyStep(word: Uint8Array, length: number, step: Step): { length: number; applied: boolean } {
  const group = length >= 2 ? step[word[length - 2] ?? 0] : undefined;
  if (group === undefined) return { length, applied: false };
  for (const rule of group) {
    if (length <= rule.suffix.length || !endsWith(word, length, rule.suffix)) continue;
    const stem = length - rule.suffix.length;
    if (!rule.condition(word, stem)) return { length, applied: false };
    word.set(rule.output, stem);
    return { length: stem + rule.output.length, applied: true };
  }
  return { length, applied: false };
}

/** Step 1a: plurals (sses -> ss, ies -> i, s -> ''). */
function step1a(word: Uint8Array, length: number): number {
  if (word[length - 1] !== S) return length;
  if (word[length - 2] === E) {
    const sses = length > 4 && word[length - 4] === S && word[length - 3] === S;
    return sses || (length > 3 && word[length - 3] === I) ? length - 2 : length - 1;
  }
  return word[length - 2] === S ? length : length - 1;
}

/** Step 1b: -eed, -ed, -ing, then tidying the stem that -ed / -ing left. */
function step1b(word: Uint8Array, length: number): number {
  // -eed (with a longer stem) decides the step: -ee when m > 0, else nothing; never -ed.
  if (length > EED.length && endsWith(word, length, EED)) return measureAbove0(word, length - 3) ? length - 1 : length;
  const removed = applyStep(word, length, STEP_1B);
  if (!removed.applied) return length;
  let n = removed.length;
  const restored = applyStep(word, n, STEP_1B2);
  if (restored.applied) return restored.length;
  const last = word[n - 1] ?? 0;
  if (!isVowel(last, false) && last !== L && last !== S && last !== Z && last === word[n - 2]) return n - 1;
  if (measureIs1(word, n) && endsCvc(word, n)) word[n++] = E;
  return n;
}

/**
 * Stems the UTF-8 bytes `word[0..length)` in place, the way FTS5's porter tokenizer does, and
 * returns the stem's length. `word` must have room for a few more bytes than `length`.
 * Callers pass tokens of 3..{@link PORTER_MAX_TOKEN_BYTES} bytes; others are not stemmed.
 *
 * @example
 * const word = new Uint8Array(80);
 * word.set(new TextEncoder().encode('relational'));
 * new TextDecoder().decode(word.subarray(0, porterStem(word, 10))); // 'relat'
 */
export function porterStem(word: Uint8Array, length: number): number {
  let n = step1b(word, step1a(word, length));
  if (word[n - 1] === Y && hasVowel(word, n - 1)) word[n - 1] = I;
  n = applyStep(word, n, STEP_2).length;
  n = applyStep(word, n, STEP_3).length;
  n = applyStep(word, n, STEP_4).length;
  if (word[n - 1] === E && (measureAbove1(word, n - 1) || (measureIs1(word, n - 1) && !endsCvc(word, n - 1)))) n--;
  if (n > 1 && word[n - 1] === L && word[n - 2] === L && measureAbove1(word, n - 1)) n--;
  return n;
}
