/**
 * Text utilities of the offline planner: words, light stemming and identifiers; sentences
 * (sentences.ts, re-exported here); named-entity-like phrases and link texts are in names.ts.
 * Pure functions, no state.
 */
import { fold, functionWordsOf, STOPWORDS } from './function-words.ts';
import { runWords, segmentedWordEnds, SPACELESS_CHAR, splitSpaceless, wordBigrams } from './scripts.ts';
import { americanStem } from './spelling.ts';

export { sentences, sentenceUnits, type SentenceUnit } from './sentences.ts';

export { STOPWORDS } from './function-words.ts';

/**
 * Lowercased word tokens (letters and digits), identifiers split at punctuation; text written
 * without spaces as its words (scripts.ts: Chinese and Japanese as character bigrams, so a
 * phrase's words are consecutive in a passage's words as they are for English).
 *
 * @example
 * words('Set max_payload_kb 设置负载'); // ['set', 'max', 'payload', 'kb', '设置', '置负', '负载']
 */
export function words(text: string): string[] {
  return wordsWith(text, (run) => runWords(run, false).map((word) => word.word));
}

/**
 * How many words a reader counts in a text (an answer's length): the pieces between spaces that
 * hold a letter or digit, and in text written without spaces (Chinese, Japanese, Thai) the words
 * `Intl.Segmenter` finds, so that a Chinese sentence of 30 characters is about 18 words, not 1.
 * Unlike {@link words}, an identifier (`max_payload_kb`) or a number (`5_000`) is one word.
 *
 * @example
 * wordCount('Leases last 30 s.'); // 4
 * wordCount('是由光荣开发的 ω-force'); // 6
 */
export function wordCount(text: string): number {
  return wordEnds(text).length;
}

/**
 * `text` cut after its `limit`-th word as {@link wordCount} counts them, marked with an ellipsis
 * when cut; the whole text when it has no more words.
 *
 * @example
 * withinWordLimit('Leases last 30 s.', 2); // 'Leases last …'
 */
export function withinWordLimit(text: string, limit: number): string {
  const ends = wordEnds(text);
  return ends.length <= limit ? text : `${text.slice(0, ends[limit - 1]).trimEnd()} …`;
}

/** Where each word of {@link wordCount} ends in `text`, in order. */
function wordEnds(text: string): number[] {
  const ends: number[] = [];
  const spaced = (other: string, offset: number) => {
    for (const piece of other.matchAll(/\S+/g)) if (/[\p{L}\p{N}]/u.test(piece[0])) ends.push(offset + piece.index + piece[0].length);
  };
  if (!SPACELESS_CHAR.test(text)) spaced(text, 0);
  else splitSpaceless(text, spaced, (run, offset) => {
    for (const end of segmentedWordEnds(run)) ends.push(offset + end);
  });
  return ends;
}

/** {@link words} with `runWords` reading the runs of text without spaces. */
function wordsWith(text: string, runWords: (run: string) => string[]): string[] {
  if (!SPACELESS_CHAR.test(text)) return spacedWords(text);
  const found: string[] = [];
  splitSpaceless(
    text,
    (other) => found.push(...spacedWords(other)),
    (run) => found.push(...runWords(run)),
  );
  return found;
}

function spacedWords(text: string): string[] {
  // Diacritics folded ("Aschenbrodel" meets "Aschenbrödel"); a mark fold keeps (a Hindi vowel sign) is the word's.
  return fold(text).match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
}

/**
 * A kanji and the kana that inflects a Japanese verb after it, in the stem forms before ます, て,
 * た and ない (`渡し` of 渡します, `書か` of 書かない), read as the dictionary form's ending (`渡す`,
 * `書く`), so that a question's polite 渡しますか meets a page's plain 渡す. Chinese has no kana.
 */
const JAPANESE_VERB_STEM = /^(\p{sc=Han})([きぎしちにびみりいかがさたなばまらわ])$/u;
const DICTIONARY_ENDING: Record<string, string> = Object.fromEntries(
  [...'きぎしちにびみりいかがさたなばまらわ'].map((kana, index) => [kana, 'くぐすつぬぶむるうくぐすつぬぶむるう'[index]!]),
);

/**
 * A light suffix-stripping stemmer (plural, -ing, -ed, -ly), enough to match "lived" with
 * "lives" and "retries" with "retry" without a dictionary, in American spelling (spelling.ts:
 * "behaviour" and "behavior" meet); a Japanese verb's inflected stem reads
 * as its dictionary form ({@link JAPANESE_VERB_STEM}).
 */
export function stem(word: string): string {
  const verb = word.length === 2 ? JAPANESE_VERB_STEM.exec(word) : null;
  if (verb !== null) return `${verb[1]}${DICTIONARY_ENDING[verb[2]!]}`;
  let w = word.toLowerCase();
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (/(?:ies|ied)$/.test(w) && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(w)) return w;
  const suffix = ['ingly', 'edly', 'ing', 'ed', 'ly', 'es', 's'].find((end) => w.endsWith(end) && w.length - end.length >= 3);
  if (suffix === 'es') w = /(?:ch|sh|x|z|ss)es$/.test(w) ? w.slice(0, -2) : w.slice(0, -1);
  else if (suffix) w = w.slice(0, -suffix.length);
  if (suffix && /(.)\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  // "behaviour" meets "behavior", "initialised" meets "initialized".
  w = americanStem(w);
  // Agent nouns meet their verbs: "director"/"directed", "performer"/"performed".
  if (!suffix && w.length >= 7 && /(?:er|or)$/.test(w)) w = w.slice(0, -2);
  // "lease", "leased" and "leases" meet at "leas".
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/**
 * Characters of Chinese question words (哪 谁 什么 几 怎 吗 呢 何): a bigram holding one asks (`由哪`,
 * `哪两`), it names no topic a passage would hold.
 */
const ASKING_CHARACTER = /[哪谁誰什么麼几幾怎吗嗎呢何]/;

/**
 * Chinese function words, in simplified and traditional characters (the words of a question's
 * form: `名叫`, `一个`, `其中`), dropped from content terms as the English {@link STOPWORDS} are;
 * the question words themselves go by {@link ASKING_CHARACTER}.
 */
const CHINESE_FUNCTION_WORDS = new Set(
  [
    '多少 一个 一些 这个 那个 这些 那些 这里 那里 这样 那样 其中 以及 或者 因为 所以 但是 然后 而且 并且 已经 可以 能够 应该 是否 叫做 名叫 称为 被称 之后 之前 时候 主要 分别 一共 总共 共有 通过 进行 成为 作为 属于 位于 关于 对于 由于 根据 其他 当时 目前',
    // The same in traditional characters (Taiwan's and Hong Kong's forms, and 爲 beside 為).
    '一個 這個 那個 這些 這裡 那裡 這裏 那裏 這樣 那樣 因為 因爲 然後 並且 已經 能夠 應該 稱為 稱爲 被稱 之後 時候 分別 總共 通過 進行 成為 成爲 作為 作爲 屬於 位於 關於 對於 由於 根據 當時',
  ]
    .join(' ')
    .split(' '),
);

/**
 * A word of hiragana alone: in Japanese the particles, auxiliaries and verb endings (`です`, `した`,
 * `ている`) and the question words (`いつ`, `どこ`), which name no topic; content words are
 * written in kanji or katakana (`標高`, `メートル`) far more often.
 */
const HIRAGANA_ONLY = /^[\u3041-\u309f]+$/;

/**
 * Content terms of a text: non-stopword words of 2+ characters, stemmed, in order, unique.
 * Chinese and Japanese give the bigrams inside their words (scripts.ts `wordBigrams`): a
 * question's `大帝本名` gives `大帝 本名`, not the `帝本` no passage holds, while a passage's
 * {@link words} hold every bigram, so a term is found however the passage's words are cut;
 * no bigram of a Chinese question word.
 */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of contentWords(text)) {
    const stemmed = stem(word);
    if (!terms.includes(stemmed)) terms.push(stemmed);
  }
  return terms;
}

/**
 * The words of a text that {@link contentTerms} keeps, as written (not stemmed, repeats kept), in
 * order: what a query asks for, as a search's coverage of it is measured.
 *
 * @example
 * contentWords('How do leases expire?'); // ['leases', 'expire']
 * contentWords('富士山の標高は？'); // ['富士', '士山', '標高']
 */
export function contentWords(text: string): string[] {
  // A text in another language written with spaces loses its function words as English loses its own.
  const other = functionWordsOf(text);
  return wordsWith(text, wordBigrams).filter(
    (word) =>
      !STOPWORDS.has(word) && !other.has(word) && word.length >= 2 && !ASKING_CHARACTER.test(word) && !CHINESE_FUNCTION_WORDS.has(word) && !HIRAGANA_ONLY.test(word),
  );
}

/** The set of stemmed words of a text. */
export function termSet(text: string): Set<string> {
  return new Set(words(text).map(stem));
}

const IDENTIFIER_PATTERNS: RegExp[] = [
  /\b[A-Z]{2,}-\d{2,}\b/g, // error codes: ORB-1202
  /\[[a-z][a-z0-9_.-]*\]\s+[a-z][a-z0-9_]*\b/g, // TOML keys: [worker] lease_seconds
  /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, // env vars: ORBIT_LEASE_TIMEOUT
  /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, // snake_case: max_payload_kb
  /\b[a-zA-Z][\w]*(?:\.[a-zA-Z_][\w]*){1,4}\b(?:\(\))?/g, // dotted: orbit.results.put_blob
  /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g, // CamelCase: PayloadTooLarge
  /\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/g, // lowerCamel: idleWaitTime
];

const FILE_LIKE = /\.(md|mdx|html?|png|jpe?g|svg|txt|py|js|ts|json|ya?ml|toml|sh|com|org|io)$/i;

/**
 * Identifiers in a text: error codes, TOML keys, env vars, snake_case, dotted names, CamelCase,
 * and short code spans. In order of first appearance, unique.
 */
export function identifiers(text: string): string[] {
  const found: Array<{ at: number; value: string }> = [];
  for (const pattern of IDENTIFIER_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const value = match[0];
      if (pattern.source.includes('\\.') && (FILE_LIKE.test(value) || /^(e\.g|i\.e|etc)\b/i.test(value) || /^\d/.test(value))) continue;
      found.push({ at: match.index ?? 0, value });
    }
  }
  // Every span is matched, long ones too: skipping one would pair its closing backtick with the
  // next span's opening one and read the prose between them as code.
  for (const match of text.matchAll(/`([^`\n]+)`/g)) {
    const value = (match[1] ?? '').trim();
    if (value.length >= 2 && value.length <= 40 && /[a-zA-Z]/.test(value) && !/\s{2,}/.test(value) && value.split(/\s+/).length <= 4) found.push({ at: match.index ?? 0, value });
  }
  found.sort((a, b) => a.at - b.at);
  const unique: string[] = [];
  for (const { value } of found) if (!unique.includes(value)) unique.push(value);
  return unique;
}
