/**
 * Words of text written without spaces, the one mechanism every reader of Atlas shares (the
 * index's tokenizer, queries, snippets, the offline planner, the claim checks):
 *
 * - Han, Hiragana, Katakana and Hangul (Chinese, Japanese, Korean): a run is read as its
 *   overlapping character bigrams, as Lucene's CJKAnalyzer does (`北京大学` -> `北京 京大 大学`);
 *   a run of one character is that character. Korean writes spaces, but a particle or an ending
 *   is written onto its word (`수도는`, `수도이자`, `수도로`): as whole words they never met, as
 *   bigrams they share `수도`. With `unigrams` (the index's ingest) every character is a term
 *   as well, so that a query of a single character (`茶`) finds the passages holding it.
 * - Thai, Lao, Khmer and Myanmar: a run is split into words by `Intl.Segmenter` (ICU's
 *   dictionaries, shipped with Node), whose vowel signs and tone marks stay in the word.
 *
 * Every other script is left to the caller (words between spaces and punctuation). Why bigrams
 * and not the segmenter for Chinese: docs/calibration.md, "Text without spaces".
 */

/** A code point no script of this module claims. */
export const OTHER_SCRIPT = 0;
/** Han, Hiragana, Katakana, Hangul: read as character bigrams. */
export const BIGRAM_SCRIPT = 1;
/** Thai, Lao, Khmer, Myanmar: read as the words of `Intl.Segmenter`. */
export const SEGMENTED_SCRIPT = 2;

/** [first, last, class] of the BMP ranges this module claims: the one list, {@link SCRIPT_CLASS}, {@link SPACELESS_CHAR} and {@link SPACELESS_RUN} are made from it. */
const BMP_RANGES: ReadonlyArray<readonly [number, number, number]> = [
  [0x0e00, 0x0e7f, SEGMENTED_SCRIPT], // Thai
  [0x0e80, 0x0eff, SEGMENTED_SCRIPT], // Lao
  [0x1000, 0x109f, SEGMENTED_SCRIPT], // Myanmar
  [0x1780, 0x17ff, SEGMENTED_SCRIPT], // Khmer
  [0x19e0, 0x19ff, SEGMENTED_SCRIPT], // Khmer symbols
  [0x1100, 0x11ff, BIGRAM_SCRIPT], // Hangul Jamo
  [0x3005, 0x3007, BIGRAM_SCRIPT], // 々 〆 〇
  [0x3041, 0x309f, BIGRAM_SCRIPT], // Hiragana (with the voiced sound marks)
  [0x30a1, 0x30fa, BIGRAM_SCRIPT], // Katakana (not ・, the middle dot)
  [0x30fc, 0x30ff, BIGRAM_SCRIPT], // ー and the iteration marks
  [0x3131, 0x318e, BIGRAM_SCRIPT], // Hangul compatibility Jamo
  [0x31f0, 0x31ff, BIGRAM_SCRIPT], // Katakana phonetic extensions
  [0x3400, 0x4dbf, BIGRAM_SCRIPT], // CJK extension A
  [0x4e00, 0x9fff, BIGRAM_SCRIPT], // CJK unified ideographs
  [0xa9e0, 0xa9ff, SEGMENTED_SCRIPT], // Myanmar extended B
  [0xaa60, 0xaa7f, SEGMENTED_SCRIPT], // Myanmar extended A
  [0xac00, 0xd7a3, BIGRAM_SCRIPT], // Hangul syllables
  [0xf900, 0xfaff, BIGRAM_SCRIPT], // CJK compatibility ideographs
  [0xff66, 0xff9f, BIGRAM_SCRIPT], // half-width Katakana
];

/** The class of every UTF-16 code unit (a high surrogate of the Han planes 2 and 3 is {@link BIGRAM_SCRIPT}). */
export const SCRIPT_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(0x10000);
  for (const [first, last, cls] of BMP_RANGES) table.fill(cls, first, last + 1);
  table.fill(BIGRAM_SCRIPT, 0xd840, 0xd8c0); // U+20000..U+3FFFF: CJK extensions B and later
  return table;
})();

/** The planes above the BMP read as {@link BIGRAM_SCRIPT}: U+20000..U+3FFFF, CJK extensions B and later. */
const ASTRAL_HAN = '\\u{20000}-\\u{3ffff}';

/** A regular-expression class body of the ranges of `cls` in {@link BMP_RANGES} (`\u3041-\u309f...`). */
function rangesOf(cls: number): string {
  const hex = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
  return BMP_RANGES.filter((range) => range[2] === cls)
    .map(([first, last]) => `${hex(first)}-${hex(last)}`)
    .join('');
}

/** Some character of a script this module reads (a quick test before the slower path). Made from {@link BMP_RANGES}. */
export const SPACELESS_CHAR = new RegExp(`[${rangesOf(BIGRAM_SCRIPT)}${rangesOf(SEGMENTED_SCRIPT)}${ASTRAL_HAN}]`, 'u');

/** A run of one script class of this module; the caller reads its class from its first unit. Made from {@link BMP_RANGES}. */
export const SPACELESS_RUN = new RegExp(`[${rangesOf(BIGRAM_SCRIPT)}${ASTRAL_HAN}]+|[${rangesOf(SEGMENTED_SCRIPT)}]+`, 'gu');

/** The script class of the character at `index` of `text` ({@link OTHER_SCRIPT} past the end). */
export function scriptAt(text: string, index: number): number {
  return index < text.length ? (SCRIPT_CLASS[text.charCodeAt(index)] ?? OTHER_SCRIPT) : OTHER_SCRIPT;
}

/** One word of a run and where it starts in the run (UTF-16 units). */
export interface RunWord {
  word: string;
  offset: number;
}

/**
 * ICU's word segmenter (its dictionaries choose by script, whatever the locale). Made on first
 * use, as making one costs about 30 ms that a search of English text need not pay; immutable.
 */
let segmenter: Intl.Segmenter | undefined;

/**
 * The words of one run of a {@link SPACELESS_RUN} (all of one class), in order: bigrams (and
 * with `unigrams` the characters, each after the bigram it starts) or segmenter words.
 *
 * @example
 * runWords('北京大学', false).map((w) => w.word); // ['北京', '京大', '大学']
 * runWords('茶', false).map((w) => w.word);       // ['茶']
 * runWords('ภาษาไทย', false).map((w) => w.word);  // ['ภาษา', 'ไทย']
 */
export function runWords(run: string, unigrams: boolean): RunWord[] {
  const words: RunWord[] = [];
  if (scriptAt(run, 0) === SEGMENTED_SCRIPT) {
    segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
    for (const part of segmenter.segment(run)) if (part.isWordLike) words.push({ word: part.segment, offset: part.index });
    return words;
  }
  const starts: number[] = [];
  for (let i = 0; i < run.length; i += isHighSurrogate(run.charCodeAt(i)) ? 2 : 1) starts.push(i);
  starts.push(run.length);
  if (starts.length === 2) return [{ word: run, offset: 0 }];
  for (let k = 0; k + 2 < starts.length; k++) {
    words.push({ word: run.slice(starts[k], starts[k + 2]), offset: starts[k]! });
    if (unigrams) words.push({ word: run.slice(starts[k], starts[k + 1]), offset: starts[k]! });
  }
  const last = starts.length - 2;
  if (unigrams) words.push({ word: run.slice(starts[last], starts[last + 1]), offset: starts[last]! });
  return words;
}

/**
 * Characters that are words of their own in Chinese and Japanese grammar (particles, copulas,
 * pronouns, measure words, question words; Japanese hiragana): a run of single characters
 * {@link wordBigrams} joins stops at them.
 */
const FUNCTION_CHARACTER = /[的了是在有和与與及或由被把对對从從向到给給为為于於以而也都就又还還很最更不没沒吗嗎呢吧呀啊嘛么麼之其此这這那哪谁誰何啥几幾多个個两兩一上下中里裡让讓将將所会會能要可该該得地着著过過等每各些种種位年月日号號说說叫\u3040-\u309f]/;

/** A word of katakana alone (with ー and the half-width forms). */
const KATAKANA_WORD = /^[\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f]+$/;

/**
 * The words of a run as a reader of sentences wants them: Han and kana as the bigrams inside
 * each `Intl.Segmenter` word (a word of one character as itself), so that no bigram straddles
 * two words (`大帝本名` -> `大帝 本名`, not `帝本`), which a passage would seldom hold; other runs
 * as {@link runWords}. A name the segmenter's dictionary does not know comes out as single
 * characters (`吴|淞|路|闸|桥`, `艾|蒂|安`): consecutive single characters that are not function
 * words ({@link FUNCTION_CHARACTER}) are read as one word, so the name gives its bigrams
 * (`吴淞 淞路 路闸 闸桥`) instead of nothing. Katakana in a row is one word too: a loanword the
 * dictionary does not know comes out cut (`ク|ロー|ジャ`), and its first character alone would be
 * lost (`クロ ロー ージ ジャ`, not `ロー ジャ`). The offline planner's text analysis reads these
 * (text.ts), the index the plain bigrams (a search ranks by many bigrams, a sentence is judged by
 * few).
 *
 * @example
 * wordBigrams('真君大帝本名叫什么'); // ['真君', '大帝', '本', '名叫', '什么']
 * wordBigrams('吴淞路闸桥原来的地址'); // ['吴淞', '淞路', '路闸', '闸桥', '原来', '的', '地址']
 * wordBigrams('クロージャとは'); // ['クロ', 'ロー', 'ージ', 'ジャ', 'と', 'は']
 */
export function wordBigrams(run: string): string[] {
  if (HANGUL_WORD.test(run)) return koreanWordBigrams(run);
  // A run of two characters is one bigram already (words joined by spaces, as a claim's are).
  if (scriptAt(run, 0) !== BIGRAM_SCRIPT || [...run].length <= 2) return runWords(run, false).map((word) => word.word);
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  const found: string[] = [];
  // Segments read as one word: katakana in a row (a loanword, or a compound of them, however the
  // dictionary cut it), or single characters in a row that are not function words (a name).
  let joined = '';
  let joinedKatakana = false;
  const flush = () => {
    if (joined !== '') for (const word of runWords(joined, false)) found.push(word.word);
    joined = '';
  };
  for (const part of segmenter.segment(run)) {
    const katakana = part.isWordLike === true && KATAKANA_WORD.test(part.segment);
    const single = part.isWordLike && !katakana && [...part.segment].length === 1 && !FUNCTION_CHARACTER.test(part.segment);
    if (!katakana && !single) {
      flush();
      if (part.isWordLike) for (const word of runWords(part.segment, false)) found.push(word.word);
      continue;
    }
    if (joined !== '' && joinedKatakana !== katakana) flush();
    joined += part.segment;
    joinedKatakana = katakana;
  }
  flush();
  return found;
}

/** A Korean word (Hangul syllables; Korean writes spaces, so a run is one word). */
const HANGUL_WORD = /^[\uac00-\ud7a3]+$/;

/** Particles and copula endings written onto a Korean word (`수도는`, `서울의`, `어디인가`), longest first. */
const KOREAN_PARTICLE = /(?:에서는|에게서|으로는|이라는|입니까|인가요|에서|에게|으로|부터|까지|처럼|보다|라는|인가|인지|이다|이며|이자|은|는|이|가|을|를|의|에|로|와|과|도|만)$/;

/** Korean question words: they ask, they name no topic. */
const KOREAN_QUESTION_WORDS = new Set(['어디', '무엇', '누구', '언제', '얼마', '몇', '어느', '어떤', '어떻게', '왜', '무슨']);

/**
 * A Korean word's bigrams without the particle or ending written onto it (`수도는` -> `수도`,
 * `대한민국의` -> `대한 한민 민국`) when two syllables or more remain; none for a question word
 * (`어디인가`, `몇`). A reader's terms: the index keeps every bigram.
 */
function koreanWordBigrams(word: string): string[] {
  const stripped = word.replace(KOREAN_PARTICLE, '');
  if (KOREAN_QUESTION_WORDS.has(stripped)) return [];
  // Two syllables or more remain, or the word is kept whole (`수도`: its 도 is no particle).
  return runWords(stripped.length >= 2 ? stripped : word, false).map((part) => part.word);
}

/**
 * Where the words of a run end, as a reader counts them: after each of `Intl.Segmenter`'s
 * word-like segments (`是由光荣` -> 是, 由, 光荣), for Han and kana as for Thai.
 *
 * @example
 * segmentedWordEnds('是由光荣开发的'); // [1, 2, 4, 6, 7]
 */
export function segmentedWordEnds(run: string): number[] {
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  const ends: number[] = [];
  for (const part of segmenter.segment(run)) if (part.isWordLike) ends.push(part.index + part.segment.length);
  return ends;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Splits a text into its spaceless runs and the text between them, in order: `visitOther` gets
 * each stretch of other text (maybe empty of words), `visitRun` each run with its offset.
 *
 * @example
 * splitSpaceless('设置max_payload_kb为10', (t) => console.log('other', t), (r) => console.log('run', r));
 * // run 设置, other max_payload_kb, run 为, other 10
 */
export function splitSpaceless(
  text: string,
  visitOther: (text: string, offset: number) => void,
  visitRun: (run: string, offset: number) => void,
): void {
  let last = 0;
  for (const match of text.matchAll(SPACELESS_RUN)) {
    if (match.index > last) visitOther(text.slice(last, match.index), last);
    visitRun(match[0], match.index);
    last = match.index + match[0].length;
  }
  if (last < text.length) visitOther(text.slice(last), last);
}
